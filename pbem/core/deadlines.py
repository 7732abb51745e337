"""Deadlines, grace and who is late: the GM's clock, kept outside the engine.

The engine and the rules never read the clock (DESIGN.md section 4). Deadlines are GM settings
that may change during a campaign (``gm/settings.toml``, table ``[deadlines]``: one RFC 3339
UTC time per phase id, ``default`` a duration counted from when a phase opened, ``grace`` a
duration after the deadline); when each phase opened is written by the command line, with its
wall clock, to ``gm/opened.toml``. Every function here takes ``now`` as an argument, so what
it answers depends only on the files and that argument.

The NMR policy is different: it is fixed for the whole campaign at ``pbem new`` (the campaign
option ``nmr``, public in ``campaign.toml``), because players must know it before they play.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import tomli

from pbem.core import engine, ledger
from pbem.core.campaign import NMR_OPTION, NMR_POLICIES, Campaign
from pbem.core.errors import CampaignError
from pbem.core.fsutil import atomic_write
from pbem.core.ruleset import PhaseSpec
from pbem.core.values import FrozenValue

#: Keys of ``[deadlines]`` that are not phase ids.
DEFAULT_KEY = "default"
GRACE_KEY = "grace"
RESERVED = (DEFAULT_KEY, GRACE_KEY)
OPENED_FILE = "opened.toml"

SUBMITTED, MISSING, LATE = "submitted", "missing", "late"

_DURATION = re.compile(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?")

POLICY_TEXT = {
    "default": "default (adjudicate --force uses the default orders of the missing)",
    "wait": "wait (adjudicate --force refuses: the game waits for every player)",
}


# --- times and durations -------------------------------------------------------------------


def parse_time(text: str) -> datetime:
    """An RFC 3339 time with its offset (``Z`` or ``+hh:mm``), as an aware UTC datetime.

    Raises ``ValueError`` with a message that says how to write it."""
    example = "write it like 2026-05-01T18:00:00Z (UTC)"
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not an RFC 3339 time; {example}") from None
    if when.tzinfo is None:
        raise ValueError(f"{text!r} has no time zone; {example}")
    return when.astimezone(UTC)


def format_time(when: datetime) -> str:
    """RFC 3339 UTC to the second, the one way pbem writes times."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_duration(text: str) -> timedelta:
    """``72h``, ``3d``, ``1d12h``, ``90m`` or ``0``; ``ValueError`` otherwise."""
    text = text.strip()
    m = _DURATION.fullmatch(text)
    if text == "0":
        return timedelta(0)
    if not text or m is None:
        raise ValueError(f"{text!r} is not a duration; write e.g. 72h, 3d, 1d12h or 90m")
    days, hours, minutes = (int(g or 0) for g in m.groups())
    return timedelta(days=days, hours=hours, minutes=minutes)


def format_duration(delta: timedelta) -> str:
    """The shortest ``1d2h3m`` spelling (seconds are dropped), ``0`` for none."""
    minutes = int(delta.total_seconds()) // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    text = (f"{days}d" if days else "") + (f"{hours}h" if hours else "") + \
        (f"{mins}m" if mins else "")
    return text or "0"


# --- when phases opened --------------------------------------------------------------------


def _opened_table(campaign: Campaign) -> dict[str, Any]:
    path = campaign.gm_dir / OPENED_FILE
    if not path.is_file():
        return {}
    try:
        return tomli.loads(path.read_text())
    except tomli.TOMLDecodeError as exc:
        raise CampaignError(f"{path} is damaged ({exc}); fix or delete it (default deadlines "
                            "then count from the next phase that opens)") from None


def opened_at(campaign: Campaign, phase_id: str) -> datetime | None:
    """When ``phase_id`` opened, as the command line recorded it (``None``: not recorded)."""
    text = _opened_table(campaign).get(phase_id)
    if not text:
        return None
    try:
        return parse_time(str(text))
    except ValueError as exc:
        raise CampaignError(f"{campaign.gm_dir / OPENED_FILE}: {phase_id}: {exc}") from None


def record_opened(campaign: Campaign, phase_id: str, when: str) -> bool:
    """Note that ``phase_id`` opened at ``when`` (RFC 3339 UTC), unless already noted: the
    first time counts (an interrupted adjudication run again must not move a deadline).

    No campaign lock is taken: the caller may hold it (the adjudication's report hook)."""
    parse_time(when)
    table = _opened_table(campaign)
    if table.get(phase_id):
        return False
    table[phase_id] = when
    import tomli_w  # here: status and the reminders only read

    atomic_write(campaign.gm_dir / OPENED_FILE, tomli_w.dumps(table).encode(), 0o600)
    return True


def record_opened_by(campaign: Campaign, seq: int, when: str) -> str | None:
    """Note the phase that ledger record ``seq`` opened (its ``next_phase``); that phase id,
    or ``None`` when the record ended the game. ``seq`` 0 is the campaign's creation, which
    opens the join phase."""
    if seq == 0:
        phase_id = campaign.ruleset.join_phase(campaign.players).id
    else:
        data = (campaign.ledger_dir / ledger.record_name(seq)).read_bytes()
        phase_id = str(ledger.load(data, ledger.record_name(seq)).get("next_phase", ""))
    if not phase_id:
        return None
    record_opened(campaign, phase_id, when)
    return phase_id


# --- the deadline of a phase ---------------------------------------------------------------


class Deadline(FrozenValue):
    """The deadline of one phase as the settings give it now (``due`` ``None``: none)."""

    _fields = ("phase", "due", "grace", "opened", "how")
    __slots__ = _fields
    phase: Final[str]
    due: Final[datetime | None]
    grace: Final[timedelta]
    opened: Final[datetime | None]
    how: Final[str]  # where ``due`` comes from, or why there is none

    def __init__(self, phase: str, due: datetime | None, grace: timedelta,
                 opened: datetime | None, how: str) -> None:
        self.phase = phase
        self.due = due
        self.grace = grace
        self.opened = opened
        self.how = how

    @property
    def grace_end(self) -> datetime | None:
        return self.due + self.grace if self.due is not None else None

    def describe(self) -> str:
        """One line for status, reports and mails."""
        if self.due is None:
            return f"none ({self.how})"
        text = f"{format_time(self.due)} ({self.how})"
        if self.grace:
            assert self.grace_end is not None
            text += (f", grace {format_duration(self.grace)} until "
                     f"{format_time(self.grace_end)}")
        return text


def _settings_problem(key: str, exc: ValueError, fix: str) -> CampaignError:
    return CampaignError(f"gm/settings.toml [deadlines] {key}: {exc} (fix: {fix})")


def deadline_table(campaign: Campaign) -> dict[str, Any]:
    table = campaign.settings().get("deadlines", {})
    if not isinstance(table, dict):
        raise CampaignError("gm/settings.toml: deadlines must be a table (fix: pbem deadline)")
    return table


def deadline_for(campaign: Campaign, phase_id: str) -> Deadline:
    """The deadline of ``phase_id``: its own time if set, else ``default`` after it opened."""
    table = deadline_table(campaign)
    try:
        grace = parse_duration(str(table.get(GRACE_KEY) or "0"))
    except ValueError as exc:
        raise _settings_problem(GRACE_KEY, exc, "pbem deadline DIR --grace 12h") from None
    opened = opened_at(campaign, phase_id)
    own = table.get(phase_id) if phase_id not in RESERVED else None
    if own:
        try:
            due = parse_time(str(own))
        except ValueError as exc:
            raise _settings_problem(phase_id, exc, f"pbem deadline DIR TIME --phase "
                                    f"{phase_id}") from None
        return Deadline(phase_id, due, grace, opened, "set for this phase")
    default = str(table.get(DEFAULT_KEY) or "")
    if not default:
        return Deadline(phase_id, None, grace, opened, "no deadline set for this phase and "
                        "no default")
    try:
        length = parse_duration(default)
    except ValueError as exc:
        raise _settings_problem(DEFAULT_KEY, exc, "pbem deadline DIR --default 72h") from None
    if opened is None:
        return Deadline(phase_id, None, grace, None, f"the default {default} counts from "
                        "when the phase opened, which was not recorded; set one with "
                        "pbem deadline")
    return Deadline(phase_id, opened + length, grace, opened,
                    f"default {format_duration(length)} after the phase opened "
                    f"{format_time(opened)}")


def deadline_text(campaign: Campaign, phase_id: str) -> str:
    """The deadline as reports print it: the time and grace, or empty when there is none."""
    d = deadline_for(campaign, phase_id)
    if d.due is None:
        return ""
    grace = (f" (grace {format_duration(d.grace)}, until {format_time(d.grace_end)})"
             if d.grace and d.grace_end else "")
    return format_time(d.due) + grace


def update_deadlines(campaign: Campaign, changes: Mapping[str, str | None]) -> dict[str, Any]:
    """Set (or, with ``None``, remove) keys of ``[deadlines]``; the new table. Values are
    checked first, so a bad value changes nothing."""
    for key, value in changes.items():
        if value is None:
            continue
        if key in RESERVED:
            parse_duration(value)
        else:
            parse_time(value)
    settings = campaign.settings()
    table = dict(settings.get("deadlines", {}))
    for key, value in changes.items():
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value
    # Reserved keys first, then phases in order: the file reads like a schedule.
    settings["deadlines"] = {k: table[k] for k in (*RESERVED, *sorted(set(table) -
                                                                        set(RESERVED)))
                             if k in table}
    campaign.save_settings(settings)
    return dict(settings["deadlines"])


# --- who has submitted ---------------------------------------------------------------------


class ActorStatus(FrozenValue):
    """Where one acting player stands in the open phase at a given ``now``."""

    _fields = ("player", "status", "commitment", "received", "note")
    __slots__ = _fields
    player: Final[str]
    status: Final[str]  # SUBMITTED, MISSING or LATE
    commitment: Final[str]  # "" when no orders were accepted
    received: Final[datetime | None]
    note: Final[str]

    def __init__(self, player: str, status: str, commitment: str, received: datetime | None,
                 note: str = "") -> None:
        self.player = player
        self.status = status
        self.commitment = commitment
        self.received = received
        self.note = note

    @property
    def has_orders(self) -> bool:
        return bool(self.commitment)

    def describe(self) -> str:
        """``submitted <c> (received T)``, ``missing``, or ``late ...``: the status first."""
        if not self.has_orders:
            return self.status + (f" ({self.note})" if self.note else "")
        when = format_time(self.received) if self.received else "time unknown"
        extra = f", {self.note}" if self.note else ""
        return f"{self.status} {self.commitment} (received {when}{extra})"


def classify(deadline: Deadline, actors: Iterable[str],
             pending: Mapping[str, tuple[str, datetime | None]], now: datetime
             ) -> list[ActorStatus]:
    """Each actor as submitted, missing or late. ``pending`` maps a player to the commitment
    and received time of their accepted orders.

    Late: orders received after the deadline (the note says whether within the grace), or
    none yet and the deadline has passed. Orders with no received time count as on time."""
    due, end = deadline.due, deadline.grace_end
    out = []
    for player in actors:
        if player in pending:
            commitment, received = pending[player]
            if due is not None and end is not None and received is not None and received > due:
                note = (f"{format_duration(received - due)} after the deadline, "
                        + ("within the grace" if received <= end else "after the grace"))
                out.append(ActorStatus(player, LATE, commitment, received, note))
            else:
                out.append(ActorStatus(player, SUBMITTED, commitment, received))
        elif due is not None and end is not None and now > due:
            note = (f"no orders; the deadline passed {format_time(due)}, "
                    + (f"grace until {format_time(end)}" if now <= end else
                       f"the grace ended {format_time(end)}"))
            out.append(ActorStatus(player, LATE, "", None, note))
        else:
            out.append(ActorStatus(player, MISSING, "", None))
    return out


def pending_receipts(campaign: Campaign, phase: PhaseSpec
                     ) -> dict[str, tuple[str, datetime | None]]:
    """Commitment and received time of each accepted order file for ``phase`` (GM only)."""
    out: dict[str, tuple[str, datetime | None]] = {}
    directory = engine.pending_dir(campaign, phase.id)
    for player in phase.actors:
        path = directory / f"{player}.toml"
        if not path.is_file():
            continue
        meta = tomli.loads(path.read_text())
        received = str(meta.get("received") or "")
        try:
            when = parse_time(received) if received else None
        except ValueError:
            when = None  # written by engine.submit's caller; unknown rather than fatal
        out[player] = (str(meta["commitment"]), when)
    return out


class PhaseStatus(FrozenValue):
    _fields = ("phase", "deadline", "actors", "policy")
    __slots__ = _fields
    phase: Final[PhaseSpec]
    deadline: Final[Deadline]
    actors: Final[list[ActorStatus]]
    policy: Final[str]

    def __init__(self, phase: PhaseSpec, deadline: Deadline, actors: list[ActorStatus],
                 policy: str) -> None:
        self.phase = phase
        self.deadline = deadline
        self.actors = actors
        self.policy = policy

    @property
    def waiting_for(self) -> list[str]:
        return [a.player for a in self.actors if not a.has_orders]


def phase_status(campaign: Campaign, now: datetime) -> PhaseStatus | None:
    """The open phase with its deadline and each actor's status (``None``: game over)."""
    _, _, phase = engine.open_phase(campaign)
    if phase is None:
        return None
    deadline = deadline_for(campaign, phase.id)
    actors = classify(deadline, phase.actors, pending_receipts(campaign, phase), now)
    return PhaseStatus(phase, deadline, actors, nmr_policy(campaign))


# --- the NMR policy ------------------------------------------------------------------------


def nmr_policy(campaign: Campaign) -> str:
    """The campaign's NMR policy: the ``nmr`` option fixed at ``pbem new`` (absent: default)."""
    policy = campaign.options.get(NMR_OPTION, NMR_POLICIES[0])
    if policy not in NMR_POLICIES:
        raise CampaignError(f"campaign.toml: options.nmr is {policy!r}, not one of "
                            f"{', '.join(NMR_POLICIES)}")
    return policy


def check_force(campaign: Campaign, now: datetime) -> list[str]:
    """Whether ``adjudicate --force`` may apply default orders now: raises under the ``wait``
    policy while orders are missing; else notes for the GM (e.g. the deadline has not
    passed yet)."""
    status = phase_status(campaign, now)
    if status is None or not status.waiting_for:
        return []
    engine.refuse_defaults_if_waiting(campaign, status.phase.id, list(status.waiting_for))
    missing = ", ".join(sorted(status.waiting_for))
    due = status.deadline.due
    if due is not None and now <= due:
        return [f"note: the deadline of {status.phase.id} ({format_time(due)}) has not passed; "
                f"default orders applied for {missing}"]
    return []
