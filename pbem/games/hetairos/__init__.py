"""Hetairos (James Baillie): an adventure game in the Greek underworld, by email."""
