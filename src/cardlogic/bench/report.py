"""The benchmark results as tables: the targets, met or not, and every figure; in the terminal or in Markdown.

Every table is built once as plain cells (:func:`sections`) and rendered by
:func:`print_report` (rich), :func:`markdown` or :func:`results_page` (the
generated ``benchmarks/RESULTS.md`` the docs link to). A target's
``ratio`` is how far past its bar the measurement is, so at least 1 means met:
measured / target for rates, target / measured for times.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

SAMPLER_TARGET = 1_000_000
"""Consistent deals per second per core on 6-player middle-game records."""
CSP_SPEEDUP_TARGET = 1_000
CSP_MEANINGFUL_DEALS = 1_000
"""Enumerations shorter than this are mostly set-up; the per-deal comparison uses the longer ones."""
EXACT_TARGETS = {
    6: (0.050, ("player",)),
    8: (1.0, ("player",)),
    10: (0.200, ("player", "spectator")),
    12: (0.200, ("player", "spectator")),
}
"""Per player count: the bar and the views it covers (the stored scenario's player to move; 10-12: a spectator too)."""
ADVICE_TARGETS = {(6,): 0.100, (8, 10, 12): 0.200}
ADVISE_COMMAND_TARGET = 1.0
"""Seconds of ``cardlogic advise RECORD`` end to end, warm (the resident server up), at 6 to 12 players."""
LIVE_TARGET = 0.300
"""Seconds from an event typed in ``cardlogic live`` to its advice, for every event (warm), at 6 to 12 players."""
KNEKTPASS_LIVE_TARGET = 0.300
"""Seconds from an event typed in ``cardlogic knektpass live`` to its advice, for every event (warm), at 3-5
players."""
SERVE_TARGET = 0.300
"""Seconds from a tap on the ``cardlogic serve`` page to the answer with the new advice (warm), at 6 and 8 players."""

Section = tuple[str, list[str], list[list[str]]]
RESULTS_TITLE = "# Benchmark results\n"
"""The first line of a results page (:func:`results_page`): how a file is known to be one."""


# -- targets -------------------------------------------------------------------------------------------------------


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with its measured value, same-run baseline, ratio and whether it is met (None: not measured)."""
    figures = results["figures"]
    rows = [_sampler_target(figures), _csp_target(figures)]
    rows += [_exact_target(figures, players, limit, views) for players, (limit, views) in EXACT_TARGETS.items()]
    rows += [_advice_target(figures, players, limit) for players, limit in ADVICE_TARGETS.items()]
    rows.append(_advise_command_target(figures))
    rows += [_live_target(figures, players) for players in (6, 8, 10, 12)]
    rows += [_serve_target(figures, players) for players in (6, 8)]
    rows += [_knektpass_live_target(figures, players) for players in (3, 4, 5)]
    rows += [_knektpass_serve_target(figures, players) for players in (3, 5)]
    rows.append(_worker_memory_target(figures))
    rows += _calibration_targets(figures)
    rows.append(_advisor_decision_target(figures))
    return rows


ADVISOR_DECISION_TARGET = 0.5
"""The most CPU seconds the advisor bot may take per decision at 6 players, on average over a game."""


def _advisor_decision_target(figures: dict[str, Any]) -> dict[str, Any]:
    name = "advisor bot decision, 6 players, mean CPU s over a game v strong"
    bar = f"<= {ADVISOR_DECISION_TARGET} s"
    figure = figures.get("advisor_decisions")
    if not figure or not figure["decisions"]:
        return _target(name, bar, None, "s", None, note="not measured")
    mean = figure["mean_cpu_seconds"]
    priors = ", ".join(f"{kind} {count}" for kind, count in sorted(figure["priors"].items()))
    return _target(
        name,
        bar,
        mean,
        "s",
        ADVISOR_DECISION_TARGET / mean,
        f"max {figure['cpu_seconds']['max']:.2f} s",
        f"{figure['decisions']} decisions, prior answered: {priors}",
    )


CALIBRATION_GAIN = 0.20
"""How much lower the players' prior's Brier score and log-loss must be than the rules' (asker's view)."""
CONFIDENT_CLAIMS = 0.80
"""How often claims stated at >= 0.8 must be right."""


def _calibration_targets(figures: dict[str, Any]) -> list[dict[str, Any]]:
    figure = figures.get("calibration")
    if not figure:
        return []
    rows = []
    games = [(figure, "", "held-out games")]
    if "strong" in figure:
        games.append((figure["strong"], ", strong v strong", "held-out games of strong v strong"))
    for scored, among, where in games:
        asks = scored["asks"]["asker"]
        for key, what in (("brier", "Brier score"), ("log_loss", "log-loss")):
            gain = scored["improvement"][key]
            rows.append(
                _target(
                    f"{what} of P(yes), asker's view{among}, players' prior v rules",
                    f">= {CALIBRATION_GAIN:.0%} lower",
                    gain,
                    "share lower",
                    None if gain != gain else gain / CALIBRATION_GAIN,
                    f"rules {asks['rules'][key]:.4f}, players {asks['players'][key]:.4f}",
                    f"{asks['rules']['count']} asks of {scored['games']} {where}",
                )
            )
    for prior, scores in figure["claims"].items():
        sure = scores.get("at_least_0.8", {"count": 0})
        name = f"claims stated >= 0.8 right, prior {prior}"
        if not sure["count"]:
            rows.append(_target(name, f">= {CONFIDENT_CLAIMS:.0%}", None, "share", None, note="no such claim"))
            continue
        rate = sure["right"] / sure["count"]
        low, high = sure["wilson"]
        rows.append(
            _target(
                name,
                f">= {CONFIDENT_CLAIMS:.0%}",
                rate,
                "share",
                rate / CONFIDENT_CLAIMS,
                note=f"{sure['right']}/{sure['count']}, 95% Wilson {low:.2f}-{high:.2f}",
            )
        )
    return rows


def _target(
    name: str, target: str, measured: float | None, unit: str, ratio: float | None, baseline: str = "", note: str = ""
) -> dict[str, Any]:
    met = None if ratio is None else bool(ratio >= 1)
    return {
        "name": name,
        "target": target,
        "measured": measured,
        "unit": unit,
        "baseline": baseline,
        "ratio": ratio,
        "met": met,
        "note": note,
    }


def _sampler_target(figures: dict[str, Any]) -> dict[str, Any]:
    name = "sampler deals/s per core, 6 players middle game"
    rows = [r for r in figures["sampler"] if r["scenario"].startswith("06p-") and r["scenario"].endswith("-middle")]
    if not rows:
        return _target(name, ">= 1,000,000", None, "deals/s", None, note="no 6-player middle-game scenario run")
    worst = min(r["deals_per_cpu_second"]["median"] for r in rows)
    shuffle = figures["baseline"]["deals_per_cpu_second"]["median"]
    return _target(
        name,
        ">= 1,000,000",
        worst,
        "deals/s",
        worst / SAMPLER_TARGET,
        f"unconstrained numpy shuffle dealer: {shuffle:,.0f} deals/s",
        f"slowest deck of {len(rows)}; {worst / shuffle:.2f}x the unconstrained shuffle",
    )


def _csp_target(figures: dict[str, Any]) -> dict[str, Any]:
    name = "sampler per-deal speed vs python-constraint2"
    both = [r for r in figures["csp"] if r["status"] == "ok" and r.get("sampler_ratio")]
    long = [r for r in both if r["deals"] >= CSP_MEANINGFUL_DEALS]
    note = f"smallest ratio over {len(long)} scenarios with >= {CSP_MEANINGFUL_DEALS:,} consistent deals"
    if not long:
        long = both
        note = (
            f"no scenario both handle has {CSP_MEANINGFUL_DEALS:,} deals: smallest ratio over {len(both)}, "
            "whose CSP rate is mostly set-up"
        )
    if not long:
        return _target(name, ">= 1,000x", None, "x", None, note="no scenario both handle")
    worst = min(long, key=lambda r: r["sampler_ratio"])
    return _target(
        name,
        ">= 1,000x",
        worst["sampler_ratio"],
        "x",
        worst["sampler_ratio"] / CSP_SPEEDUP_TARGET,
        f"CSP {worst['deals_per_second']['median']:,.0f} deals/s on {worst['scenario']} ({worst['deals']:,} deals)",
        note,
    )


def _exact_target(figures: dict[str, Any], players: int, limit: float, views: tuple[str, ...]) -> dict[str, Any]:
    name = f"exact marginals, {players} players, every stage, {' and '.join(views)}"
    rows = [r for r in figures["exact"] if r["scenario"].startswith(f"{players:02d}p-") and r["view"] in views]
    bar = f"< {limit * 1000:,.0f} ms"
    if not rows:
        return _target(name, bar, None, "ms", None, note="no scenario run")
    beyond = [f"{r['scenario']} ({r['view']})" for r in rows if r["status"] != "ok"]
    if beyond:
        return _target(name, bar, None, "ms", 0.0, note=f"beyond the exact limit (sampled): {', '.join(beyond)}")
    worst = max(rows, key=lambda r: r["seconds"]["median"])
    seconds = worst["seconds"]["median"]
    return _target(
        name,
        bar,
        seconds * 1000,
        "ms",
        limit / seconds,
        f"slowest: {worst['scenario']} ({worst['view']})",
        f"max of medians over {len(rows)} views",
    )


def _advice_target(figures: dict[str, Any], players: tuple[int, ...], limit: float) -> dict[str, Any]:
    counts = f"{players[0]}-{players[-1]}" if len(players) > 1 else f"{players[0]}"
    name = f"advice latency, {counts} players, warm"
    bar = f"< {limit * 1000:,.0f} ms"
    advice = figures["advice"]
    rows = [r for r in advice.get("rows", []) if r["status"] == "ok" and r.get("players", 6) in players]
    if not rows:
        return _target(name, bar, None, "ms", None, note=advice.get("note") or advice["status"])
    worst = max(rows, key=lambda r: r["seconds"]["median"])
    seconds = worst["seconds"]["median"]
    return _target(
        name,
        bar,
        seconds * 1000,
        "ms",
        limit / seconds,
        f"slowest: {worst['scenario']}",
        f"max of medians over {len(rows)} scenarios",
    )


def _advise_command_target(figures: dict[str, Any]) -> dict[str, Any]:
    """The warm figure: the command line with the resident server up (results from before it had one: a new
    process)."""
    name = "cardlogic advise RECORD end to end, warm, 6-12 players, deal and early"
    bar = f"< {ADVISE_COMMAND_TARGET:.0f} s"
    command = figures.get("advise_command") or {"rows": []}
    if not command["rows"]:
        return _target(name, bar, None, "s", None, note="no scenario run")
    key = "resident_seconds" if all("resident_seconds" in r for r in command["rows"]) else "seconds"
    worst = max(command["rows"], key=lambda r: r[key]["median"])
    seconds = worst[key]["median"]
    how = "resident server up" if key == "resident_seconds" else "new process, warm numba cache"
    return _target(
        name,
        bar,
        seconds,
        "s",
        ADVISE_COMMAND_TARGET / seconds,
        f"importing alone: {command['imports_seconds']['median']:.2f} s; "
        f"a new process: {worst['seconds']['median']:.2f} s",
        f"slowest: {worst['players']} players, {worst['stage']} ({how})",
    )


WORKER_MEMORY_TARGET_MB = 1024
"""The most a tournament worker (one process playing 12-player advisor games) may take, in MB."""


def _worker_memory_target(figures: dict[str, Any]) -> dict[str, Any]:
    name = "peak memory of a 12-player advisor game (one tournament worker), every deck measured"
    bar = f"<= {WORKER_MEMORY_TARGET_MB:,} MB"
    rows = [r for r in figures["memory"]["processes"] if r.get("worker") and r["peak_mb"] is not None]
    if not rows:
        return _target(name, bar, None, "MB", None, note="no advisor game run")
    worst = max(rows, key=lambda r: r["peak_mb"])
    return _target(
        name,
        bar,
        worst["peak_mb"],
        "MB",
        WORKER_MEMORY_TARGET_MB / worst["peak_mb"],
        ""
        if worst["over_imports_mb"] is None
        else f"importing alone: {worst['peak_mb'] - worst['over_imports_mb']:.0f} MB",
        f"largest: {worst['what']} ({len(rows)} decks measured)",
    )


def _event_target(
    name: str,
    limit: float,
    row: dict[str, Any] | None,
    missing: str,
    note: Callable[[dict[str, Any]], str],
    core: tuple[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A target on the slowest event timed in ``row`` (None: not measured, ``missing`` says why), below ``limit``
    seconds: the events' median as the baseline, with the median of ``core`` (its name and row: the game core
    alone) where given, and ``note(row)``."""
    bar = f"< {limit * 1000:,.0f} ms"
    if row is None:
        return _target(name, bar, None, "ms", None, note=missing)
    slowest = row["seconds"]["max"]
    baseline = f"median {row['seconds']['median'] * 1000:.0f} ms"
    if core is not None:
        baseline += f"; the game core alone ({core[0]}): median {core[1]['seconds']['median'] * 1000:.0f} ms"
    return _target(name, bar, slowest * 1000, "ms", limit / slowest, baseline, note(row))


def _players_row(figure: dict[str, Any] | None, players: int, *, timed: bool = True) -> dict[str, Any] | None:
    """The first row of ``figure`` at ``players`` (with events timed, unless not ``timed``), or None."""
    rows = [r for r in (figure or {"rows": []})["rows"] if r["players"] == players and (r["events"] or not timed)]
    return rows[0] if rows else None


def _live_target(figures: dict[str, Any], players: int) -> dict[str, Any]:
    return _event_target(
        f"live advice per event, {players} players, warm",
        LIVE_TARGET,
        _players_row(figures["live"], players),
        "no scenario run",
        lambda row: f"slowest of {row['events']} of {row['total_events']} events of {row['scenario']}",
    )


def _knektpass_live_target(figures: dict[str, Any], players: int) -> dict[str, Any]:
    return _event_target(
        f"knektpass live advice per event, {players} players, warm",
        KNEKTPASS_LIVE_TARGET,
        _players_row(figures.get("knektpass_live"), players),
        "not measured",
        lambda row: f"slowest of {row['events']} of {row['total_events']} events, {row['advised']} with advice",
    )


def _knektpass_serve_target(figures: dict[str, Any], players: int) -> dict[str, Any]:
    served = _players_row(figures.get("knektpass_serve"), players, timed=False)
    core = _players_row(figures.get("knektpass_live"), players, timed=False)
    return _event_target(
        f"knektpass serve tap to advice, {players} players, warm",
        SERVE_TARGET,
        served if served and served["events"] else None,
        "not measured",
        lambda row: (
            f"slowest of {row['events']} of {row['total_events']} events, {row['advised']} with advice, "
            f"answers of {row['answer_bytes'] / 1024:.0f} KiB"
        ),
        ("knektpass live", core) if core and core["events"] else None,
    )


def _serve_target(figures: dict[str, Any], players: int) -> dict[str, Any]:
    core = _players_row(figures["live"], players)
    return _event_target(
        f"serve tap to advice, {players} players, warm",
        SERVE_TARGET,
        _players_row(figures.get("serve"), players),
        "no scenario run",
        lambda row: (
            f"slowest of {row['events']} of {row['total_events']} events of {row['scenario']}, answers of "
            f"{row['answer_bytes'] / 1024:.0f} KiB"
        ),
        ("live", core) if core else None,
    )


# -- tables --------------------------------------------------------------------------------------------------------


LIVE_COLUMNS = ["events timed", "with advice", "ms median (min-max)", "ms p90"]
"""The columns of a live per-event table after the one naming its row."""
SERVE_COLUMNS = [*LIVE_COLUMNS, "answer KiB"]
"""The columns of a serve tap-to-advice table after the one naming its row."""


def _live_row(r: dict[str, Any], first: str) -> list[str]:
    """A row of a live per-event table, named by its ``first`` field."""
    return [
        str(r[first]),
        f"{r['events']} of {r['total_events']}",
        str(r["advised"]),
        _ms(r["seconds"]),
        f"{r['p90'] * 1000:.2f}",
    ]


def _live_rows(rows: list[dict], first: str) -> list[list[str]]:
    """A live per-event table's rows (:func:`_live_row`)."""
    return [_live_row(r, first) for r in rows] or [["-", "not measured", "", "", ""]]


def _serve_rows(rows: list[dict], first: str) -> list[list[str]]:
    """A serve tap-to-advice table's rows: a live table's and the answer's size."""
    return [[*_live_row(r, first), f"{r['answer_bytes'] / 1024:.1f}"] for r in rows] or [
        ["-", "not measured", "", "", "", ""]
    ]


def _ms(stats: dict[str, float]) -> str:
    return f"{stats['median'] * 1000:.2f} ({stats['min'] * 1000:.2f}-{stats['max'] * 1000:.2f})"


def _rate(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:.2f} M"
    if value >= 1e3:
        return f"{value / 1e3:.1f} k"
    return f"{value:.0f}"


def _measured(row: dict[str, Any]) -> str:
    value = row["measured"]
    if value is None:
        return "not measured yet" if row["met"] is None else "n/a"
    return f"{value:,.0f} {row['unit']}" if value >= 100 else f"{value:,.2f} {row['unit']}"


def _met(met: bool | None) -> str:
    return {True: "met", False: "NOT met", None: "not measured yet"}[met]


def sections(results: dict[str, Any]) -> list[Section]:
    """Every table of the report as (title, columns, rows of cells)."""
    f = results["figures"]
    out: list[Section] = [
        (
            "Targets (ratio >= 1 means met)",
            ["target", "bar", "measured", "same-run baseline", "ratio", "status", "note"],
            [
                [
                    t["name"],
                    t["target"],
                    _measured(t),
                    t["baseline"],
                    "" if t["ratio"] is None else f"{t['ratio']:.2f}",
                    _met(t["met"]),
                    t["note"],
                ]
                for t in results["targets"]
            ],
        )
    ]

    exact = {r["scenario"]: r for r in f["exact"] if r["view"] == "player"}
    spectator = {r["scenario"]: r for r in f["exact"] if r["view"] == "spectator"}
    sampler = {r["scenario"]: r for r in f["sampler"]}
    csp = {r["scenario"]: r for r in f["csp"]}
    rejection = {r["scenario"]: r for r in f["rejection"]}
    rows = []
    for s in results["scenarios"]:
        name = s["name"]
        e, v, p, c, r = exact[name], spectator[name], sampler[name], csp[name], rejection[name]
        rows.append(
            [
                name,
                f"{s['unplaced_cards']}",
                _ms(e["seconds"]) if e["status"] == "ok" else "beyond limit",
                _ms(v["seconds"]) if v["status"] == "ok" else "beyond limit",
                f"{_rate(p['deals_per_cpu_second']['median'])} ({p['method']})",
                _rate(c["deals_per_second"]["median"]) if c["status"] == "ok" else "gave up",
                f"{c['sampler_ratio']:,.0f}x" if c.get("sampler_ratio") else "",
                f"{r['acceptance']:.2e}" if r["kept"] else f"< {r['acceptance_below']:.0e}",
            ]
        )
    out.append(
        (
            "Per scenario: exact ms median (min-max), player and spectator; deals/s per core; CSP; rejection",
            [
                "scenario",
                "unplaced",
                "exact ms",
                "spectator exact ms",
                "sampler deals/s",
                "CSP deals/s",
                "sampler/CSP",
                "rejection accept",
            ],
            rows,
        )
    )

    acceptance: dict[int, dict[str, list[float]]] = {}
    cap = max((r["tries"] for r in f["rejection"]), default=1)
    players = {s["name"]: s["players"] for s in results["scenarios"]}
    for r in f["rejection"]:
        acceptance.setdefault(players[r["scenario"]], {}).setdefault(r["stage"], []).append(r["acceptance"])
    stage_names = list(dict.fromkeys(r["stage"] for r in f["rejection"]))
    out.append(
        (
            f"Rejection sampler acceptance (kept / proposed, median over decks; at most {cap:,} proposals)",
            ["players", *stage_names],
            [
                [str(n), *(_acceptance(_median(by[stage]), cap) if stage in by else "" for stage in stage_names)]
                for n, by in sorted(acceptance.items())
            ],
        )
    )

    out.append(
        (
            "Sampler marginal error vs exact (total variation over uncertain cards, median over seeds)",
            ["scenario", "method", "samples", "TV mean", "TV max"],
            [
                [
                    r["scenario"],
                    r["method"],
                    f"{r['samples']:,}",
                    f"{r['tv_mean']['median']:.4f}",
                    f"{r['tv_max']['median']:.4f}",
                ]
                for r in f["accuracy"]
            ],
        )
    )

    advice = f["advice"]
    out.append(
        (
            "Advice latency, warm, for the player to move: advise(belief); advise_record(record) from scratch",
            ["scenario", "advise ms median (min-max)", "advise_record ms"],
            [
                [
                    r["scenario"],
                    _ms(r["seconds"]) if r["status"] == "ok" else r["status"],
                    _ms(r["record_seconds"]) if "record_seconds" in r else "",
                ]
                for r in advice.get("rows", [])
            ]
            or [["-", advice["status"], ""]],
        )
    )

    live = f["live"]
    out.append(
        (
            "Live advice per event, warm: push, autosave and (on my team's turn) advice, every event in order",
            ["scenario", *LIVE_COLUMNS],
            _live_rows(live["rows"], "scenario"),
        )
    )

    serve = f.get("serve") or {"rows": []}
    out.append(
        (
            "cardlogic serve, tap to advice, warm: the page's POST of an event to the answer with the whole table",
            ["scenario", *SERVE_COLUMNS],
            _serve_rows(serve["rows"], "scenario"),
        )
    )

    command = f.get("advise_command") or {"rows": []}
    out.append(
        (
            "cardlogic advise RECORD --json, warm numba cache: a new process, and the command line with the "
            f"resident server up (importing alone: {command['imports_seconds']['median']:.2f} s)"
            if command["rows"]
            else "cardlogic advise RECORD",
            ["players", "stage", "new process s median (min-max)", "peak RSS MB", "resident server s"],
            [
                [
                    str(r["players"]),
                    r["stage"],
                    _s(r["seconds"]),
                    _mb(r["peak_mb"]),
                    _s(r["resident_seconds"]) if "resident_seconds" in r else "-",
                ]
                for r in command["rows"]
            ]
            or [["-", "not measured", "", "", ""]],
        )
    )

    first = f.get("first_advice") or {"status": "not measured", "rows": []}
    out.append(
        (
            (
                "From an empty numba cache to the first advice (new processes): cardlogic warmup, then the command; "
                "or the command alone, compiling as it goes"
            ),
            ["game", "command", "warmup s", "then advice s", "total s", "command alone s"],
            [
                [
                    r["game"],
                    r["command"],
                    f"{r['warmup_seconds']:.1f}",
                    f"{r['first_advice_seconds']:.2f}",
                    f"{r['warmup_seconds'] + r['first_advice_seconds']:.1f}",
                    f"{r['lazy_seconds']:.1f}",
                ]
                for r in first["rows"]
            ]
            or [["-", first["status"], "", "", "", ""]],
        )
    )

    knektpass = f.get("knektpass_live") or {"rows": []}
    first_live = (f.get("knektpass_first_advice") or {"rows": []})["rows"]
    out.append(
        (
            "Knektpass live advice per event, warm: push, autosave and (when I decide) advice, a bots' match in order"
            + "".join(
                f"; from an empty cache: warmup {r['warmup_seconds']:.1f} s, then the first advice "
                f"{r['first_advice_seconds']:.2f} s"
                for r in first_live
            ),
            ["players", *LIVE_COLUMNS],
            _live_rows(knektpass["rows"], "players"),
        )
    )

    knektpass_serve = f.get("knektpass_serve") or {"rows": []}
    out.append(
        (
            "cardlogic serve for Knektpass, tap to advice, warm: the page's POST of an event to the answer",
            ["players", *SERVE_COLUMNS],
            _serve_rows(knektpass_serve["rows"], "players"),
        )
    )

    cold = f["cold_start"]
    out.append(
        (
            f"CLI start: {cold['command']} (new process)",
            ["numba cache", "seconds median (min-max)", "peak RSS MB"],
            [
                ["empty (compiles)", _s(cold["cold_seconds"]), _mb(cold["cold_peak_mb"])],
                ["warm", _s(cold["warm_seconds"]), _mb(cold["warm_peak_mb"])],
                ["imports only (warm)", f"{cold['imports_seconds']:.2f}", _mb(cold["imports_mb"])],
                ["cold / warm", f"{cold['cold_over_warm']:.1f}x", ""],
            ],
        )
    )

    memory = f["memory"]
    out.append(
        (
            "Peak memory",
            ["what", "scenario", "MB"],
            [[m["what"] + " (tracemalloc)", m["scenario"], f"{m['peak_mb']:.1f}"] for m in memory["traced"]]
            + [
                [
                    m["what"] + " (process peak RSS)",
                    m.get("scenario", ""),
                    _mb(m["peak_mb"])
                    + (f" (+{m['over_imports_mb']:.0f})" if m.get("over_imports_mb") is not None else ""),
                ]
                for m in memory["processes"]
            ],
        )
    )

    base = f["baseline"]
    out.append(
        (
            "Same-run baseline",
            ["what", "deals/s per core"],
            [[base["what"], _rate(base["deals_per_cpu_second"]["median"])]],
        )
    )

    lit = f["literature_pkg"]
    out.append(
        ("PyPI literature package: its deductions vs our certain facts", ["figure", "value"], _literature_rows(lit))
    )
    if "calibration" in f:
        out += _calibration_sections(f["calibration"])
    return out


def _calibration_sections(figure: dict[str, Any]) -> list[Section]:
    """The priors' scores, one row per view and prior, and the asks' reliability tables (10 bins)."""
    rows = []
    kinds = [(f"asks, {view}'s view", figure["asks"][view]) for view in ("asker", "spectator")]
    kinds.append(("claims, claimer's view", figure["claims"]))
    for kind, by_prior in kinds:
        for prior, s in by_prior.items():
            if not s["count"]:
                rows.append([kind, prior, "0", "", "", ""])
                continue
            sure = s["at_least_0.8"]
            low, high = sure["wilson"]
            rows.append(
                [
                    kind,
                    prior,
                    str(s["count"]),
                    f"{s['brier']:.4f}",
                    f"{s['log_loss']:.4f}",
                    f"{sure['right']}/{sure['count']} ({low:.2f}-{high:.2f})",
                ]
            )
    bots = ", ".join(" v ".join(pair) for pair in figure["bots"])
    out: list[Section] = [
        (
            f"Calibration on {figure['games']} held-out games ({bots}, 6 players, seed {figure['seed']}); "
            + figure["diagram"],
            ["events", "prior", "count", "Brier", "log-loss", "stated >= 0.8 right (95% Wilson)"],
            rows,
        )
    ]
    for view in ("asker", "spectator"):
        by_prior = figure["asks"][view]
        tables = {prior: {b["bin"]: b for b in s.get("reliability", [])} for prior, s in by_prior.items()}
        bins = sorted({name for table in tables.values() for name in table})
        out.append(
            (
                f"Reliability of P(yes), {view}'s view: asks, stated, came true (95% Wilson) per bin",
                ["bin", *by_prior],
                [
                    [
                        name,
                        *(
                            (
                                f"{b['count']}: {b['stated']:.3f} -> {b['true']:.3f} "
                                f"({b['wilson'][0]:.2f}-{b['wilson'][1]:.2f})"
                            )
                            if (b := tables[prior].get(name))
                            else ""
                            for prior in by_prior
                        ),
                    ]
                    for name in bins
                ],
            )
        )
    return out


def _literature_rows(lit: dict[str, Any]) -> list[list[str]]:
    if lit["status"] != "ok":
        return [["status", lit["status"]]]
    r = lit["result"]
    rows = [["games (players)", f"{lit['games']} ({', '.join(map(str, lit['options'].get('players', ())))})"]]
    if {"moments", "their_facts", "our_facts", "own_facts"} <= r.keys():
        moments = max(r["moments"], 1)
        theirs, ours = r["their_facts"] - r["own_facts"], r["our_facts"] - r["own_facts"]
        rows += [
            ["events / moments compared", f"{r.get('events', '')} / {r['moments']:,}"],
            ["facts beyond own hand, theirs (per moment, all observers)", f"{theirs:,} ({theirs / moments:.1f})"],
            ["facts beyond own hand, ours (per moment, all observers)", f"{ours:,} ({ours / moments:.1f})"],
            ["ours / theirs", f"{ours / theirs:.2f}x" if theirs else "n/a"],
            ["our certain facts they lack", f"{r.get('extra', '')}"],
            ["their facts not certain for us", f"{r.get('unconfirmed', '')} {r.get('verdicts') or ''}"],
        ]
        if "their_seconds_per_game" in r:
            rows += [
                ["deduction s/game, theirs", f"{r['their_seconds_per_game']:.3f}"],
                ["deduction s/game, ours (exact inference)", f"{r['our_seconds_per_game']:.3f}"],
            ]
    else:
        rows += [[key, _short(value)] for key, value in _flat(r)]
    rows.append(
        [
            "wall s/game (play + both engines{})".format(", judged" if lit["options"].get("judge") else ""),
            f"{lit['seconds_per_game']:.2f}",
        ]
    )
    return rows


def _mb(value: float | dict[str, float] | None) -> str:
    if value is None:
        return "n/a"
    return f"{value['median'] if isinstance(value, dict) else value:.0f}"


def _acceptance(value: float, cap: int) -> str:
    return f"{value:.1e}" if value > 0 else f"< {1 / cap:.0e} (none kept)"


def _s(stats: dict[str, float]) -> str:
    return f"{stats['median']:.2f} ({stats['min']:.2f}-{stats['max']:.2f})"


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _flat(value: Any, prefix: str = "") -> Iterable[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flat(item, f"{prefix}{key}.")
    else:
        yield prefix.rstrip(".") or "result", value


def _short(value: Any) -> str:
    text = f"{value:.4g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _footer(results: dict[str, Any]) -> str:
    m = results["machine"]
    return (
        f"{results['mode']} mode, {results['elapsed_seconds']:.0f} s, {results['date']}, commit "
        f"{results['commit']}; Python {m['python']}, numba {m['numba']}, {m['cpus']} CPUs, load "
        f"{', '.join(f'{x:.1f}' for x in m['load_average'] or [])}"
    )


def print_report(results: dict[str, Any]) -> None:
    """The tables in the terminal, with rich."""
    from rich.table import Table

    from cardlogic.cli.console import CommandConsole  # a reader who leaves early (| head) ends it quietly

    console = CommandConsole()
    if not console.is_terminal:
        console = CommandConsole(width=170)
    for title, columns, rows in sections(results):
        table = Table(title=title, title_justify="left")
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(*(_colour(cell) for cell in row))
        console.print(table)
    console.print(_footer(results))


def _colour(cell: str) -> str:
    """``cell`` as rich markup: a target's status in colour, any other text as it is (``[test]`` stays)."""
    from rich.markup import escape

    return {"met": "[green]met[/]", "NOT met": "[bold red]NOT met[/]"}.get(cell, escape(cell))


def results_page(results: dict[str, Any]) -> str:
    """A whole Markdown page of ``results``: when, on what commit and machine, then every table."""
    m = results["machine"]
    load = ", ".join(f"{x:.1f}" for x in m["load_average"] or []) or "unknown"
    return (
        f"{RESULTS_TITLE}\n"
        "Written by the benchmark suite from its JSON (`python benchmarks/run.py --quick --json FILE --results "
        "benchmarks/RESULTS.md`); do not edit by hand. What each figure means: [docs/benchmarks.md]"
        "(../docs/benchmarks.md).\n\n"
        f"- run: {results['mode']} mode, {results['date']}, {results['elapsed_seconds']:.0f} s\n"
        f"- commit: {results['commit']}\n"
        f"- machine: {m['platform']}, {m['processor']}, {m['cpus']} CPUs, load average {load}\n"
        f"- software: Python {m['python']}, numpy {m['numpy']}, numba {m['numba']}\n\n" + markdown(results)
    )


def markdown(results: dict[str, Any]) -> str:
    """The tables in Markdown."""
    parts = []
    for title, columns, rows in sections(results):
        parts.append(f"**{title}**\n")
        parts.append("| " + " | ".join(columns) + " |")
        parts.append("|" + "---|" * len(columns))
        parts.extend("| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows)
        parts.append("")
    parts.append(f"_{_footer(results)}_")
    return "\n".join(parts) + "\n"
