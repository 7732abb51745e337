#!/usr/bin/env python3
"""Re-derive pbem draws by hand, with nothing but hashlib and hmac (DESIGN.md section 4).

    python3 verify_roll.py CAMPAIGN_ID PHASE SEED_HEX MIX_HEX J LABEL N
    python3 verify_roll.py --record ledger/000003.toml CAMPAIGN_ID

The first form prints the value of the J-th public draw with LABEL and N outcomes of a record
whose ``seed`` (s_k) and ``mix`` are given; the second recomputes every draw listed in a record.
This file is deliberately independent of pbem: an auditor can read all of it in a minute.
"""

import hashlib
import hmac
import sys


def phase_key(s_k: bytes, campaign: str, phase: str, mix_hex: str, sealed: bool = False) -> bytes:
    first = "pbem-rng-sealed/1" if sealed else "pbem-rng/1"
    msg = f"{first}\ncampaign={campaign}\nphase={phase}\nmix={mix_hex}\n".encode()
    return hmac.new(s_k, msg, hashlib.sha256).digest()


def draw(key: bytes, j: int, label: str, n: int) -> int:
    # A record from anyone but pbem may say anything: from 2**64 + 1 on, the limit below is
    # 0 and the loop would never end. (A valid record never has n above 2**32.)
    if type(n) is not int or not 1 <= n <= 2**64:
        raise ValueError(f"n must be an integer from 1 to 2**64, the record says {n!r}")
    limit = (2**64 // n) * n
    c = 0
    while True:
        h = hmac.new(key, f"{j}:{label}:{c}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(h[:8], "big")
        if x < limit:
            return x % n + 1
        c += 1


def mix_next(prev: bytes, entropy: dict) -> bytes:
    lines = "".join(f"entropy.{p}={entropy[p]}\n" for p in sorted(entropy))
    return hashlib.sha256(prev + lines.encode()).digest()


def main(argv: list) -> int:
    if argv[:1] == ["--record"]:
        import tomllib

        with open(argv[1], encoding="utf-8") as f:
            record = tomllib.loads(f.read())
        key = phase_key(bytes.fromhex(record["seed"]), argv[2], record["phase"], record["mix"])
        bad = 0
        draws = record.get("draws", [])
        if not isinstance(draws, list) or not all(isinstance(d, dict) for d in draws):
            print("malformed record: draws must be an array of tables")
            return 1
        for d in draws:
            try:
                value = draw(key, d["i"], d["label"], d["n"])
            except (KeyError, TypeError, ValueError) as exc:
                print(f"malformed draw {d!r:.60}: {exc}")
                return 1
            ok = value == d["value"]
            bad += not ok
            verdict = "ok" if ok else "MISMATCH"
            print(f"{d['i']:4} {d['label']:40} n={d['n']:<4} {value:4} {verdict}")
        return 1 if bad else 0
    campaign, phase, seed_hex, mix_hex, j, label, n = argv
    key = phase_key(bytes.fromhex(seed_hex), campaign, phase, mix_hex)
    print(draw(key, int(j), label, int(n)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
