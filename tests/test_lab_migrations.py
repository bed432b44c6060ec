"""A lab database made by the previous release opens and goes on after the upgrade.

The previous release is run for real: its source tree is exported from git
(commit ``ada7941``: the lab's tables made with ``create_all``, no version
table, experiments without study, baseline or noise) and its ``parlour lab
run`` plays a quick run of independent matches and one of duplicate deals
into a fresh SQLite file.  The new :class:`~parlour.store.Store` then opens
the same file: Alembic stamps and upgrades it, the old experiments are there
unchanged (no study, no noise) and resume, and new ones are played beside
them.  A database the new store makes from nothing must be exactly what the
models describe, so that a migration cannot drift from them unnoticed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, MetaData, Table, create_engine, inspect, select, text

from conftest import export_release, newest_revision
from parlour.lab import plan, runner
from parlour.store import VERSION_TABLE, Base, MatchData, Store, database_url
from parlour.web.store import TableStore

PREVIOUS_RELEASE = "ada7941"
"""The last commit before the lab's migrations (tables made with ``create_all``)."""
OLD_RUNS = (("--players", "random,random", "--matches", "6"), ("--players", "heuristic,random", "--deals", "3"))
"""The previous release's quick runs: six independent matches, and three duplicate deals (six matches)."""


@pytest.fixture(scope="module")
def previous_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The previous release's source tree (``src/``), exported from git."""
    folder = export_release(PREVIOUS_RELEASE, tmp_path_factory.mktemp("previous-release"))
    assert (folder / "src" / "parlour" / "store" / "__init__.py").exists()
    return folder


def run_previous(tree: Path, *args: str) -> str:
    """``python -m parlour lab …`` of the previous release (its own source tree first on the path)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), COLUMNS="200")
    done = subprocess.run([sys.executable, "-m", "parlour", "lab", *args], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def schema(engine: Engine) -> dict[str, Any]:
    """Every table's columns and the lab's Alembic revision, read straight from the database."""
    with engine.connect() as connection:
        found = inspect(connection)
        names = set(found.get_table_names())
        columns = {name: {c["name"] for c in found.get_columns(name)} for name in names}
        revision = (connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
                    if VERSION_TABLE in names else None)
    return {"columns": columns, "revision": revision}


def rows(engine: Engine, columns: dict[str, set[str]]) -> dict[str, list[Any]]:
    """Every row of the given tables, in id order, as far as the given columns go."""
    with engine.connect() as connection:
        found = {name: Table(name, MetaData(), autoload_with=connection) for name in columns}
        return {name: [tuple(r) for r in connection.execute(
                    select(*(table.c[c] for c in sorted(columns[name]))).order_by(table.c.id))]
                for name, table in found.items()}


def drift(engine: Engine) -> list[Any]:
    """What Alembic's autogenerate would change to make the database match the models (nothing, we hope)."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE,
                                                               "compare_server_default": True})
        return list(compare_metadata(context, Base.metadata))


def test_a_database_of_the_previous_release_is_upgraded_and_goes_on(previous_release: Path, tmp_path: Path) -> None:
    db = tmp_path / "lab.sqlite"
    for args in OLD_RUNS:
        assert "played 6 new matches" in run_previous(previous_release, "run", "minus-twenty", *args,
                                                      "--jobs", "1", "--db", str(db))
    engine = create_engine(database_url(db))
    try:
        old = schema(engine)
        assert old["revision"] is None and "noise" not in old["columns"]["experiments"], "not the previous release"
        before = rows(engine, old["columns"])
        assert len(before["matches"]) == 12 and before["rounds"] and before["events"]
        with engine.connect() as connection:
            names = list(connection.execute(text("SELECT name FROM experiments ORDER BY id")).scalars())

        store = Store(db)
        try:
            upgraded = schema(engine)
            assert upgraded["revision"] == [newest_revision("parlour.store")]
            assert {"study", "baseline", "noise"} <= upgraded["columns"]["experiments"]
            assert drift(engine) == []
            assert rows(engine, old["columns"]) == before
            stored = store.experiments()
            assert [(e.name, e.study, e.baseline, e.noise) for e in stored] == [(n, None, None, 0.0) for n in names]

            # the old quick runs resume under the same names: nothing is left to play
            same = [plan.make_spec(game="minus-twenty", players=["random", "random"], matches=6),
                    plan.make_spec(game="minus-twenty", players=["heuristic", "random"], deals=3)]
            assert [s.name for s in same] == names
            assert runner.run(same, store, jobs=1) == 0
            # and a study's noisy experiment is played beside them
            new = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=4, noise=0.1,
                                 study="upgrade", baseline="upgrade: standard", name="upgrade: standard")
            assert runner.run([new], store, jobs=1) == 4
            dumped = store.dump()
            assert [(e["name"], len(e["matches"])) for e in dumped] == [(names[0], 6), (names[1], 6), (new.name, 4)]
            row = store.experiment(new.name)
            assert row is not None and (row.study, row.baseline, row.noise) == ("upgrade", "upgrade: standard", 0.1)
        finally:
            store.close()
        after = schema(engine)
        again = Store(db)  # the upgrade is done once: opening it again changes nothing
        try:
            assert schema(engine) == after
            assert again.dump() == dumped
        finally:
            again.close()
    finally:
        engine.dispose()


@pytest.mark.parametrize("where", ["file", "memory"])
def test_a_new_database_is_exactly_what_the_models_describe(where: str, tmp_path: Path) -> None:
    store = Store(tmp_path / "lab.sqlite" if where == "file" else "sqlite://")
    try:
        made = schema(store.engine)
        assert made["revision"] == [newest_revision("parlour.store")]
        assert drift(store.engine) == []
        row = store.add_experiment(name="quick", game="minus-twenty", game_version="1", options={},
                                   players=["random", "random"], mode="matches", count=1, seed=0)
        assert (row.study, row.baseline, row.noise) == (None, None, 0.0)
        store.add_matches(row.id, [MatchData(0, None, [0, 1], 5, 0, [1, 2], [1], 3, "{}",
                                             [(1, 0, [1, 2], 3)], [(1, 1, 0, "play", 0)])])
        assert [(m["index"], m["round_rows"], m["events"]) for m in store.dump()[0]["matches"]] == [
            (0, [[1, 0, [1, 2], 3]], [[1, 1, 0, "play", 0]])]
    finally:
        store.close()


def test_the_lab_and_the_web_server_share_a_database(tmp_path: Path) -> None:
    """Each keeps its own version table, so neither takes the other's tables for its own first release."""
    url = database_url(tmp_path / "both.sqlite")
    web = TableStore(url)
    lab = Store(url)
    try:
        found = schema(lab.engine)
        assert found["revision"] == [newest_revision("parlour.store")]
        assert {"web_alembic_version", "web_tables", "experiments"} <= set(found["columns"])
        lab.add_experiment(name="beside the web", game="minus-twenty", game_version="1", options={},
                           players=["random", "random"], mode="matches", count=1, seed=0)
    finally:
        lab.close()
        web.close()
    for _ in range(2):
        web, lab = TableStore(url), Store(url)
        try:
            assert [e.name for e in lab.experiments()] == ["beside the web"]
            assert schema(lab.engine) == found
        finally:
            lab.close()
            web.close()
