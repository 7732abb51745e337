"""The commands of DESIGN.md section 7. Each parses its arguments, calls the library, prints.

Exit codes: 0 ok, 1 rejected or not verified (any :class:`PbemError`), 2 usage. A user error is
one clear message on stderr, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click
import typer

from pbem import __version__
from pbem.core.errors import PbemError, UsageError

if TYPE_CHECKING:
    from pbem.core.ruleset import Ruleset

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Play-by-email adjudicator for Greek-myth board games.",
                  context_settings={"help_option_names": ["-h", "--help"]})


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pbem {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", "-V", callback=_version,
                                                 is_eager=True, help="Print the version.")]
          = False) -> None:
    """pbem: signed orders, sealed commitments, verifiable dice, a hash-chained ledger."""


def now_utc() -> str:
    """The wall clock, RFC 3339 UTC to the second: only the command line reads it (received
    times, deadlines); the engine and the rules get it as an argument when they need it."""
    from datetime import UTC, datetime

    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _passphrase_prompt(path: Path) -> object:
    import getpass

    if not sys.stdin.isatty():
        return None
    return lambda: getpass.getpass(f"Passphrase for {path}: ")


def _load_key(path: Path):  # type: ignore[no-untyped-def]
    from pbem.core import keys

    return keys.load_private_key(path, _passphrase_prompt(path))  # type: ignore[arg-type]


def _open(directory: Path):  # type: ignore[no-untyped-def]
    from pbem import games
    from pbem.core.campaign import open_campaign

    return open_campaign(directory, games.get)


def _token() -> str:
    """64 hex digits from the system's random source: what ``secrets.token_hex(32)`` returns,
    without importing ``secrets`` (and ``random`` with it) into a one-shot command."""
    import os

    return os.urandom(32).hex()


def _text(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PbemError(f"{source}: not UTF-8 text (byte {exc.start}); send the order file "
                        "as plain text") from None


def _read(path: str) -> tuple[bytes, str]:
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"{path}: no such file")
    return p.read_bytes(), path


@app.command()
def games() -> None:
    """List the games this installation can run."""
    from pbem import games as registry

    found = registry.names()
    width = max(map(len, found), default=0)
    for name in found:
        title, low, high = registry.about(name)  # a built-in game is not imported for it
        typer.echo(f"{name:{width}}  {title} ({low}-{high} players)")


@app.command()
def keygen(path: Path, comment: Annotated[str, typer.Option(help="Key comment.")] = "") -> None:
    """Write a new OpenSSH ed25519 key: PATH (mode 0600) and PATH.pub (never over an
    existing file or link, never into a folder that does not exist)."""
    from pbem.core import keys

    key = keys.generate_key()
    keys.write_keypair(path, key, comment)
    typer.echo(f"wrote {path} and {path}.pub")
    typer.echo(keys.public_key_line(key.public_key(), comment))


@app.command()
def new(
    game: str, directory: Annotated[Path, typer.Argument(metavar="DIR")],
    gm_key: Annotated[Path, typer.Option("--gm-key", help="The GM's ed25519 private key.")],
    player: Annotated[list[str], typer.Option(help="NAME=PUBKEY (a .pub file or the key line); "
                                               "repeat for every player.")],
    option: Annotated[list[str] | None, typer.Option(help="K=V game option; repeatable.")] = None,
    campaign_id: Annotated[str | None, typer.Option("--id", help="Campaign id (default: DIR's "
                                                    "name).")] = None,
    chain_length: Annotated[int, typer.Option(help="Records the seed chains allow.")] = 4096,
) -> None:
    """Create a campaign: signed campaign.toml, allowed_signers, the GM's secrets under gm/."""
    from pbem import games as registry
    from pbem.core import campaign, keys

    ruleset = registry.get(game)
    players: dict[str, bytes] = {}
    for item in player:
        name, sep, pub = item.partition("=")
        if not sep:
            raise UsageError(f"--player {item!r}: write NAME=PUBKEY")
        if name in players:
            raise UsageError(f"--player {name} given twice")
        players[name] = keys.load_public_key(pub)
    options: dict[str, str] = {}
    for item in option or []:
        k, sep, v = item.partition("=")
        if not sep:
            raise UsageError(f"--option {item!r}: write K=V")
        options[k] = v
    key = _load_key(gm_key)
    cid = campaign_id or directory.absolute().name
    campaign.create(directory, ruleset, campaign_id=cid, gm_key=key,
                    gm_key_path=str(gm_key.absolute()), players=players, options=options,
                    chain_length=chain_length)
    from pbem.core import deadlines

    deadlines.record_opened_by(_open(directory), 0, now_utc())  # the join phase opens now
    typer.echo(f"created campaign {cid} ({ruleset.title}) in {directory}")
    typer.echo(f"next: send each player `pbem form {directory} --player NAME` (phase t00.join)")


@app.command()
def form(directory: Annotated[Path, typer.Argument(metavar="DIR")],
         player: Annotated[str, typer.Option(help="The player the form is for.")]) -> None:
    """Print the order form of the open phase for PLAYER."""
    from pbem.core import engine
    from pbem.core.forms import render_form

    c = _open(directory)
    if player not in c.players:
        raise UsageError(f"{player!r} is not a player of {c.id}")
    _, state, phase = engine.open_phase(c)
    if phase is None:
        raise PbemError("the game is over: no phase is open")
    if player not in phase.actors:
        raise PbemError(f"{player} does not give orders in phase {phase.id} "
                        f"(acting: {', '.join(phase.actors) or 'nobody'})")
    view = c.ruleset.view(state, player) if state is not None else {}
    typer.echo(render_form(c.id, player, phase, c.ruleset.order_form(view, phase, player),
                           _token(), _token(), c.envelope_hash),
               nl=False)


@app.command()
def sign(file: str, key: Annotated[Path, typer.Option(help="Your ed25519 private key (or, "
                                                     "with ssh-agent, KEY.pub).")],
         output: Annotated[Path | None, typer.Option("-o", "--output", help="Write here "
                                                     "instead of stdout (a new or regular "
                                                     "file, or a device such as "
                                                     "/dev/stdout).")] = None,
         keep_entropy: Annotated[bool, typer.Option(help="Keep the form's salt and entropy "
                                                    "instead of fresh ones.")] = False) -> None:
    """Sign the order blocks of FILE with KEY (fresh salt and entropy unless --keep-entropy).

    The TOML and the envelope are checked first: a broken file is not signed. With KEY.pub
    whose private key is not a file, the signature is made by ssh-agent through ssh-keygen."""
    from pbem.core import keys, signing

    data, source = _read(file)
    text = _text(data, source)
    prepared = signing.prepare(text, source, **({"fresh": None} if keep_entropy else {}))
    agent = keys.agent_public_key(key)
    if agent is not None:
        signed = signing.sign_with_agent(prepared, key, agent)
    else:
        signed = signing.sign_prepared(prepared, _load_key(key))
    _write_out(output, signed.encode())


def _write_out(output: Path | None, data: bytes) -> None:
    """To stdout, or to the file OUTPUT (fsutil.write_output: never a folder made, a device
    written as a stream, a link written through)."""
    from pbem.core.fsutil import write_output

    if output is None or str(output) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    write_output(output, data)
    typer.echo(f"wrote {output}", err=True)


@app.command()
def check(file: str,
          game: Annotated[str | None, typer.Option(help="The game (when the phase id could "
                                                   "be several games' form).")] = None
          ) -> None:
    """Check FILE before sending it, without the campaign: the TOML, the envelope, the
    signature's shape if signed, and the keys and types of [orders] against the phase's
    order form. Exit 0 when nothing is wrong, 1 otherwise."""
    from pbem.core.formcheck import check_text

    if game is not None:
        from pbem import games as registry

        registry.get(game)
    data, source = _read(file)
    failed = False
    for report in check_text(_text(data, source), source, game):
        what = (f"{report.player} {report.phase} (block at line {report.line})"
                if report.player else f"order block at line {report.line}")
        for p in report.problems:
            failed = True
            typer.echo(f"{source}: {p}", err=True)
        status = "problems" if report.problems else "ok"
        typer.echo(f"{status}: {source}: {what}")
        for note in report.notes:
            typer.echo(f"  {note}")
    if failed:
        raise typer.Exit(1)


@app.command()
def verify(file: str, campaign: Annotated[Path, typer.Option(help="The campaign directory.")]
           ) -> None:
    """Check FILE as the GM would (signature, envelope, rules) without submitting it."""
    from pbem.core import armor, engine

    data, source = _read(file)
    c = _open(campaign)
    blocks = armor.extract(_text(data, source), source)
    if not blocks:
        raise PbemError(f"{source}: no order block found")
    if not c.is_gm:
        for block in blocks:
            order = engine.check_order_public(c, block, source)
            typer.echo(f"ok: {order.player} {order.envelope.phase} commitment "
                       f"{order.commitment} (signature, campaign, player and phase checked; "
                       "the rules need the GM's state)")
        return
    _, state, phase = engine.open_phase(c)
    for block in blocks:
        order, notes = engine.check_order_notes(c, block, state, phase, source)
        typer.echo(f"ok: {order.player} {order.envelope.phase} commitment {order.commitment}")
        for note in notes:
            typer.echo(f"  accepted; checked again when it runs: {note}")


@app.command()
def commit(file: str) -> None:
    """Print the commitment of every order block in FILE (post it before the deadline)."""
    from pbem.core import armor

    data, source = _read(file)
    blocks = armor.extract(_text(data, source), source)
    if not blocks:
        raise PbemError(f"{source}: no order block found")
    for block in blocks:
        typer.echo(block.commitment)


@app.command()
def submit(directory: Annotated[Path, typer.Argument(metavar="DIR")],
           files: Annotated[list[str], typer.Argument(metavar="FILE...")]) -> None:
    """Submit order files: every file is kept in the inbox; prints a receipt or the errors."""
    from pbem.core import engine
    from pbem.core.receipts import format_receipt

    c = _open(directory)
    failed = False
    for f in files:
        data, source = _read(f)
        result = engine.submit(c, data, source, received=now_utc())
        head = engine.head(c)
        for r in result.receipts:
            typer.echo(f"receipt: {source}: {r.status} orders of {r.player} for {r.phase}; "
                       f"commitment {r.commitment}; ledger head {head.seq} {head.prev_hash}; "
                       f"inbox {result.inbox.name}")
            typer.echo(format_receipt(r.player, r.phase, r.commitment, head.seq,
                                      head.prev_hash, c.hash), nl=False)
            for note in r.notes:
                typer.echo(f"  accepted; checked again when it runs: {note}")
        for e in result.errors:
            failed = True
            typer.echo(f"rejected: {e.render()}", err=True)
    if failed:
        raise typer.Exit(1)


@app.command()
def status(directory: Annotated[Path, typer.Argument(metavar="DIR")]) -> None:
    """The open phase, its deadline and the NMR policy, and each acting player: submitted
    (commitment, received time), missing, or late (docs/mail.md)."""
    from pbem.core import deadlines, engine

    c = _open(directory)
    head = engine.head(c)
    typer.echo(f"campaign {c.id} ({c.ruleset.title})")
    typer.echo(f"ledger: {head.seq} records, head {head.prev_hash}")
    if not c.is_gm:  # a public copy has the ledger but not the state, deadlines or inbox
        nxt = head.record["next_phase"] if head.record else c.ruleset.join_phase(c.players).id
        typer.echo(f"open phase: {nxt}" if nxt else "the game is over")
        if nxt:
            typer.echo(f"NMR policy: {deadlines.POLICY_TEXT[deadlines.nmr_policy(c)]}")
            typer.echo("(deadlines and submissions are known only to the GM's copy)")
        return
    _, _, phase = engine.open_phase(c)
    if phase is None:
        typer.echo("the game is over")
        return
    typer.echo(f"open phase: {phase.id}{' (' + phase.title + ')' if phase.title else ''}"
               f"{', sealed' if phase.sealed else ''}")
    typer.echo(f"NMR policy: {deadlines.POLICY_TEXT[deadlines.nmr_policy(c)]}")
    st = deadlines.phase_status(c, deadlines.parse_time(now_utc()))
    assert st is not None
    typer.echo(f"deadline: {st.deadline.describe()}")
    for a in st.actors:
        typer.echo(f"  {a.player:12} {a.describe()}")
    if phase.automatic:
        typer.echo("  (automatic phase: nobody submits; run pbem adjudicate)")


@app.command()
def adjudicate(directory: Annotated[Path, typer.Argument(metavar="DIR")],
               force: Annotated[bool, typer.Option(help="Deadline passed: apply the default "
                                                   "orders of missing players.")] = False,
               gm_key: Annotated[Path | None, typer.Option(help="The GM key (default: the one "
                                                           "given to pbem new).")] = None
               ) -> None:
    """Adjudicate the open phase (and any automatic phases after it)."""
    from pbem.core import deadlines, engine, report
    from pbem.core.campaign import Campaign

    c = _open(directory)
    now = now_utc()
    if force:  # the NMR policy 'wait' refuses here; 'default' may only add a note
        for note in deadlines.check_force(c, deadlines.parse_time(now)):
            typer.echo(note, err=True)
    key_path = gm_key or Path(str(c.settings().get("gm_key", "")))

    def write_reports(camp: Campaign, k: int) -> None:
        # When the phase opened, before its reports: default deadlines count from it.
        deadlines.record_opened_by(camp, k, now)
        report.write_reports(camp, k)

    written = engine.adjudicate(c, lambda: _load_key(key_path), force=force,
                                write_reports=write_reports)
    for k in written:
        typer.echo(f"wrote ledger record {k:06d}")
    _, _, phase = engine.open_phase(c)
    typer.echo(f"open phase: {phase.id}" if phase else "the game is over")


@app.command()
def report(directory: Annotated[Path, typer.Argument(metavar="DIR")],
           player: Annotated[str | None, typer.Option(help="The player (omit for the public "
                                                      "gazette).")] = None,
           fmt: Annotated[str, typer.Option("--format", help="txt (mail), md (forum "
                                            "Markdown), bbcode (phpBB) or html (one page "
                                            "with the board picture).")] = "txt",
           seq: Annotated[int | None, typer.Option(help="Record number (default: the "
                                                   "latest).")] = None) -> None:
    """Render PLAYER's report (or the gazette) for a record."""
    from pbem.core import ledger
    from pbem.core import report as report_mod

    c = _open(directory)
    k = seq if seq is not None else ledger.count(c.ledger_dir)
    typer.echo(report_mod.render(c, k, player, fmt), nl=False)


@app.command()
def receipts(directory: Annotated[Path, typer.Argument(metavar="DIR")],
             player: Annotated[str, typer.Option(help="Your player name.")],
             files: Annotated[list[str] | None, typer.Argument(
                 metavar="FILE...", help="The signed order files you sent, in the order you "
                 "sent them (mail or forum text with the blocks in it is fine).")] = None,
             key: Annotated[list[str] | None, typer.Option(
                 help="Your public key (a .pub file or the key line): without it the key "
                 "the campaign publishes for you is taken on trust. Repeat it for each key "
                 "of yours when the GM replaced one (pbem player-key).")] = None,
             ) -> None:
    """Check a published copy against what you sent: your key, and your last commitment of
    each phase in its record. Shows a fork or a ledger cut short that no audit can see."""
    from pbem.core import keys
    from pbem.core import receipts as receipts_mod

    c = _open(directory)
    mine = [keys.load_public_key(k) for k in key or []]
    texts = []
    for name in files or []:
        data, source = _read(name)
        texts.append((source, _text(data, source)))
    found = receipts_mod.check(c, player, mine, texts)
    for line in found.lines:
        typer.echo(line)
    if found.mismatches:
        typer.echo(f"pbem: {len(found.mismatches)} mismatch(es): this copy of {c.id} does not "
                   f"hold what {player} sent", err=True)
        raise typer.Exit(1)
    typer.echo(f"receipts ok: {player}'s key and commitments are in this copy of {c.id}")


@app.command("player-key")
def player_key(directory: Annotated[Path, typer.Argument(metavar="DIR")],
               name: Annotated[str, typer.Argument(metavar="NAME")],
               new_key: Annotated[str, typer.Argument(
                   metavar="NEW.pub", help="The player's new public key (a .pub file or the "
                   "key line).")],
               reason: Annotated[str, typer.Option(
                   help="Why, published in the ledger (one line).")] = "key replaced by the GM",
               ) -> None:
    """The GM replaces player NAME's lost key: a [[key_changes]] entry in the next record,
    in effect from the record after it (DESIGN.md section 8)."""
    from pbem.core import keychange, keys, sshsig

    c = _open(directory)
    new = keys.load_public_key(new_key)
    done = keychange.queue(c, name, new, reason)
    typer.echo(f"{name}: key {sshsig.fingerprint(done.old)} -> {sshsig.fingerprint(new)}, "
               f"carried by record {done.record} and valid from record {done.from_record} on")
    typer.echo(f"the open phase still takes {name}'s old key (an order already accepted "
               "with it stands); the new key signs from the next phase on. Reports and the "
               "site say so from the next record.")


@app.command()
def audit(directory: Annotated[Path, typer.Argument(metavar="DIR")],
          seq: Annotated[int | None, typer.Option(help="With --explain: the record.")] = None,
          explain: Annotated[bool, typer.Option(help="Print every draw of record --seq with "
                                                "its derivation.")] = False,
          quiet: Annotated[bool, typer.Option("-q", "--quiet")] = False,
          jobs: Annotated[int | None, typer.Option(help="Processes (default: all cores): "
                                                   "for a directory, campaigns at once; for "
                                                   "the GM's campaign, spans of records "
                                                   "re-adjudicated at once.")] = None,
          ) -> None:
    """Check signatures, chains, dice, commitments; re-adjudicate every phase that can be.

    DIR may also be a directory of campaigns: each is audited, in parallel, one line each."""
    import os

    from pbem.core import audit as audit_mod

    if explain and seq is None:
        raise UsageError("--explain needs --seq N")
    if directory.is_dir() and not (directory / "campaign.toml").exists():
        _audit_many(directory, jobs, quiet)
        return
    if jobs is not None and jobs < 1:
        raise UsageError("--jobs must be at least 1")
    c = _open(directory)
    result = audit_mod.audit(c, (lambda _: None) if quiet and not explain else typer.echo,
                             explain=seq if explain else None,
                             jobs=jobs or os.cpu_count() or 1)
    typer.echo(f"audit passed: {result.records} records"
               + (", every phase re-adjudicated" if result.replayed else ", public checks only"))
    for line in audit_mod.not_known(c):
        typer.echo(line)


def _audit_many(directory: Path, jobs: int | None, quiet: bool) -> None:
    import os

    from pbem import games
    from pbem.core import audit_many

    paths = audit_many.find_campaigns(directory)
    if not paths:
        raise UsageError(f"{directory} holds no campaign (no campaign.toml in it or below)")
    failed = 0
    with click.progressbar(length=len(paths), label="auditing", file=sys.stderr) as bar:
        for result in audit_many.audit_all(paths, games.get, jobs=jobs or os.cpu_count() or 1):
            bar.update(1)
            failed += not result.ok
            if not (quiet and result.ok):
                typer.echo(result.line(directory))
    typer.echo(f"audited {len(paths)} campaigns: {len(paths) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


@app.command()
def simulate(game: str,
             games_: Annotated[int, typer.Option("--games", help="How many games.")] = 10,
             players: Annotated[int | None, typer.Option(help="Players per game (default: "
                                                         "every count in turn).")] = None,
             seed: Annotated[str, typer.Option(help="Base seed; game i uses SEED.i.")] = "1",
             jobs: Annotated[int | None, typer.Option(help="Processes (default: all "
                                                      "cores).")] = None,
             start: Annotated[int, typer.Option(help="Number of the first game.")] = 0,
             option: Annotated[list[str] | None, typer.Option(help="K=V game option.")] = None,
             keep: Annotated[Path | None, typer.Option(help="Keep each game's campaign in "
                                                       "KEEP/NNNNN.")] = None,
             ) -> None:
    """Play many bot campaigns through the real path and check each one: the audit
    (deterministic replay), secrecy of views and sealed orders, the game's conservation rules."""
    import os

    from pbem import games as registry
    from pbem.core import simulate as sim

    ruleset = registry.get(game)
    if games_ < 1:
        raise UsageError("--games must be at least 1")
    if jobs is not None and jobs < 1:
        raise UsageError("--jobs must be at least 1")
    options = dict(item.partition("=")[::2] for item in option or [])
    _check_demo_options(ruleset, options, sorted({
        sim.players_for(ruleset, i, players) for i in range(start, start + min(games_, 64))}))
    if keep is not None:
        from pbem.core.fsutil import check_new_dir

        if not keep.is_dir():
            check_new_dir(keep, "--keep")
            keep.mkdir()
    reports = []
    with click.progressbar(length=games_, label=f"simulating {game}", file=sys.stderr) as bar:
        for report in sim.run(game, games_, seed=seed, players=players, options=options,
                              resolve=registry.get, jobs=jobs or os.cpu_count() or 1,
                              start=start, keep=keep):
            bar.update(1)
            reports.append(report)
            if not report.ok:
                typer.echo("\n".join(sim.describe_failure(report)), err=True)
    for line in sim.summary(reports):
        typer.echo(line)
    if any(not r.ok for r in reports):
        raise typer.Exit(1)


@app.command()
def export(directory: Annotated[Path, typer.Argument(metavar="DIR")],
           out: Annotated[Path, typer.Argument(metavar="OUT")]) -> None:
    """Copy the public part of the campaign to the new folder OUT: campaign.toml(.sig),
    allowed_signers and the ledger's records and signatures, nothing else, never through a
    symbolic link."""
    from pbem.core.campaign import export_public
    from pbem.core.fsutil import check_new_dir

    c = _open(directory)
    check_new_dir(out, "the export")
    count = export_public(c.root, out)
    typer.echo(f"exported the public part of {c.id} to {out} ({count} files)")


@app.command()
def demo(game: str,
         players: Annotated[int, typer.Option(help="Number of bot players.")] = 4,
         seed: Annotated[str, typer.Option(help="Seed: the same seed gives the same "
                                           "files.")] = "1",
         directory: Annotated[Path | None, typer.Option("--dir", help="Where to put it "
                                                        "(default: a new temp dir).")] = None,
         option: Annotated[list[str] | None, typer.Option(help="K=V game option.")] = None,
         jobs: Annotated[int | None, typer.Option(help="Processes (default: all cores); "
                                                  "the others render the reports while the "
                                                  "game goes on.")] = None,
         ) -> None:
    """Play a whole campaign with bot players through sign/submit/adjudicate, then audit it."""
    import os
    import tempfile
    import textwrap

    from pbem import games as registry
    from pbem.core import demo as demo_mod

    ruleset = registry.get(game)
    options = dict(item.partition("=")[::2] for item in option or [])
    if jobs is not None and jobs < 1:
        raise UsageError("--jobs must be at least 1")
    _check_demo_options(ruleset, options, [players])
    if directory is not None and not directory.is_dir():
        from pbem.core.fsutil import check_new_dir

        check_new_dir(directory, "--dir")
    root = directory or Path(tempfile.mkdtemp(prefix=f"pbem-demo-{game}-"))
    result = demo_mod.run(ruleset, root, players=players, seed=seed, options=options,
                          resolve=registry.get, say=typer.echo,
                          jobs=jobs or os.cpu_count() or 1)
    for line in demo_mod.standings(result.result):
        typer.echo(line)
    where = result.campaign_dir
    first = demo_mod.NAMES[0]
    typer.echo(f"campaign: {where}")
    typer.echo(f"keys: {root / 'keys'} (the GM's and each player's)")
    typer.echo("next, with this demo's files:")
    for command, what in (
            (f"pbem report {where} --player {first}",
             f"{first}'s report of the last record, as mailed (--format html: the page with "
             "the board; --seq N: an earlier record)"),
            (f"pbem site {where} {root / 'site'}",
             "the public web site: an index, every record with its gazette and board"),
            (f"pbem audit {where}", "check every signature, die and phase again")):
        typer.echo(f"  {command}")
        typer.echo(textwrap.fill(what, 78, initial_indent="      ",
                                 subsequent_indent="      "))


def _check_demo_options(ruleset: Ruleset, options: dict[str, str], counts: list[int]) -> None:
    """Bad ``--option`` or ``--players`` of ``demo`` and ``simulate``: a usage error at once
    (exit 2), before any game is played. ``counts``: the numbers of players the run uses."""
    from pbem.core import demo as demo_mod

    for n in counts:
        if not ruleset.min_players <= n <= min(ruleset.max_players, len(demo_mod.NAMES)):
            raise UsageError(f"--players {n}: {ruleset.title} takes {ruleset.min_players} to "
                             f"{min(ruleset.max_players, len(demo_mod.NAMES))} players")
        problems = ruleset.check_options(options, demo_mod.NAMES[:n])
        if problems:
            raise UsageError("; ".join(str(p) for p in problems))


# Commands of the mail, forum and web channels live in modules of their own.
def _register_channels() -> None:
    from pbem.cli import cmd_ingest, cmd_mail, cmd_site

    for module in (cmd_mail, cmd_ingest, cmd_site):
        module.register(app)


_register_channels()


def _command_name(info: typer.models.CommandInfo) -> str:
    assert info.callback is not None
    return info.name or info.callback.__name__.lower().replace("_", "-")


def _app_for(args: list[str]) -> typer.Typer:
    """The group with only the command asked for: typer builds a click command from each
    registered function's signature at every call (about 2 ms each), which a one-shot command
    such as ``pbem verify`` need not pay for the other twenty. Help, an option before the
    command or an unknown name get the whole group, so they read as before."""
    if not args or args[0].startswith("-"):
        return app
    chosen = [info for info in app.registered_commands if _command_name(info) == args[0]]
    if len(chosen) != 1:
        return app
    only = typer.Typer(add_completion=False, no_args_is_help=True, help=app.info.help,
                       context_settings=app.info.context_settings)
    only.registered_callback = app.registered_callback
    only.registered_commands = chosen
    return only


def run(args: list[str]) -> int:
    try:
        # In non-standalone mode click returns the code of a typer.Exit instead of raising it.
        code = _app_for(args)(args=args, prog_name="pbem", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return 2
    except click.exceptions.Abort:
        typer.echo("pbem: aborted", err=True)
        return 1
    except UsageError as exc:
        typer.echo(f"pbem: {exc}", err=True)
        return 2
    except PbemError as exc:
        typer.echo(f"pbem: {exc}", err=True)
        return 1
    except KeyboardInterrupt:
        typer.echo("pbem: interrupted", err=True)
        return 130
    except OSError as exc:
        typer.echo(f"pbem: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), err=True)
        return 1
    return code if isinstance(code, int) else 0
