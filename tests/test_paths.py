"""Path counts: the frontier dynamic programme against brute force, OEIS and the CLI."""

from __future__ import annotations

import json

import pytest

from boggle_i18n.board.paths import count_paths
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import BoggleI18nError

runner = CliRunner()

# Published sequences (oeis.org), n = 1, 2, ... Every one counts directed paths and
# includes the n*n single-cell paths, exactly as `count_paths(...).total` does.
A236690_KING = [1, 64, 10305, 12029640, 115066382913]  # simple directed paths on the n x n king graph
A236753_GRID = [1, 28, 653, 28512, 3060417, 873239772]  # the same on the n x n grid graph P_n x P_n
A096969_HAMILTONIAN = [1, 8, 40, 552, 8648, 458696]  # directed Hamiltonian paths on the n x n grid graph
# A339750: undirected paths with at least one edge on the 2 x n king graph.
A339750_2XN_KING = [1, 30, 235, 1448, 7909, 40674, 202719, 994268, 4837337, 23441366]


def brute_force(rows: int, cols: int, diagonals: bool, max_length: int | None = None) -> list[int]:
    """Walk every simple path from every cell: paths by number of cells, 1..max_length."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    longest = len(cells) if max_length is None else min(max_length, len(cells))

    def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        return (max(dr, dc) == 1) if diagonals else (dr + dc == 1)

    near = [[j for j, b in enumerate(cells) if adjacent(a, b)] for a in cells]
    counts = [0] * longest

    def walk(cell: int, used: int, length: int) -> None:
        counts[length - 1] += 1
        if length < longest:
            for nxt in near[cell]:
                if not used >> nxt & 1:
                    walk(nxt, used | 1 << nxt, length + 1)

    for start in range(len(cells)):
        walk(start, 1 << start, 1)
    return counts


SMALL = [(r, c) for r in range(1, 5) for c in range(1, 5)]


@pytest.mark.parametrize("diagonals", [True, False], ids=["diagonals", "orthogonal"])
@pytest.mark.parametrize(("rows", "cols"), SMALL, ids=[f"{r}x{c}" for r, c in SMALL])
def test_every_board_up_to_4x4_matches_brute_force(rows: int, cols: int, diagonals: bool) -> None:
    """Per-length counts equal a plain walk over every path (4x4 with diagonals: lengths 1..8)."""
    max_length = 8 if (rows, cols, diagonals) == (4, 4, True) else None  # 12 million paths in full
    expected = brute_force(rows, cols, diagonals, max_length)
    assert list(count_paths(rows, cols, diagonals, max_length).by_length) == expected


@pytest.mark.parametrize(
    ("rows", "cols", "diagonals"),
    [(1, 9, True), (2, 6, True), (5, 2, True), (3, 5, False), (5, 3, False), (2, 8, False), (4, 5, False)],
)
def test_other_shapes_match_brute_force(rows: int, cols: int, diagonals: bool) -> None:
    """Long and non-square boards, both orientations (the programme transposes to the shorter side)."""
    assert list(count_paths(rows, cols, diagonals).by_length) == brute_force(rows, cols, diagonals)


def test_4x4_with_diagonals_total() -> None:
    """The figure the Boggle field knows: 12,029,640 paths of 1..16 cells."""
    counts = count_paths(4, 4)
    assert counts.total == 12_029_640
    assert counts.cumulative()[-1] == counts.total
    assert counts.by_length[:2] == (16, 84)  # cells, and directed king edges (2 x 42)


@pytest.mark.parametrize("n", range(1, len(A236690_KING) + 1))
def test_king_graph_matches_oeis_a236690(n: int) -> None:
    assert count_paths(n, n, diagonals=True).total == A236690_KING[n - 1]


@pytest.mark.parametrize("n", range(1, len(A236753_GRID) + 1))
def test_grid_graph_matches_oeis_a236753_and_a096969(n: int) -> None:
    counts = count_paths(n, n, diagonals=False)
    assert counts.total == A236753_GRID[n - 1]
    assert counts.by_length[-1] == A096969_HAMILTONIAN[n - 1]  # paths through every cell


def test_2xn_king_graph_matches_oeis_a339750() -> None:
    for n, undirected in enumerate(A339750_2XN_KING, start=1):
        counts = count_paths(2, n)
        assert (counts.total - 2 * n) // 2 == undirected, n


def test_max_length_is_a_prefix_and_capped() -> None:
    full = count_paths(3, 4, diagonals=True)
    for k in (1, 2, 5, 11):
        assert count_paths(3, 4, max_length=k).by_length == full.by_length[:k]
    assert count_paths(3, 4, max_length=99).by_length == full.by_length


@pytest.mark.parametrize(
    ("rows", "cols", "max_length", "message"),
    [
        (0, 3, None, "at least 1"),
        (3, 0, None, "at least 1"),
        (9, 9, None, "64 cells"),
        (4, 4, 0, "max-length must be in 1"),
        (4, 4, 10**30, "max-length must be in 1"),
    ],
)
def test_bad_input_is_a_board_error(rows: int, cols: int, max_length: int | None, message: str) -> None:
    with pytest.raises(BoggleI18nError, match=message):
        count_paths(rows, cols, max_length=max_length)


# --- the command --------------------------------------------------------------------------------


def test_cli_table_and_total() -> None:
    result = runner.invoke(app, ["paths", "--size", "4x4"])
    assert result.exit_code == 0, result.output
    assert "total 12,029,640 paths of length 1..16" in result.output
    rows = [line.split() for line in result.output.splitlines() if line.strip()[:1].isdigit()]
    assert [row[0] for row in rows] == [str(k) for k in range(1, 17)]
    assert rows[-1][2] == "12,029,640"  # the cumulative column ends at the total


def test_cli_json_no_diagonals_and_max_length() -> None:
    result = runner.invoke(app, ["paths", "--size", "3x5", "--no-diagonals", "--max-length", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = brute_force(3, 5, False, 4)
    assert (data["rows"], data["cols"], data["diagonals"], data["max_length"]) == (3, 5, False, 4)
    assert [row["paths"] for row in data["by_length"]] == expected
    assert [row["length"] for row in data["by_length"]] == [1, 2, 3, 4]
    assert data["total"] == sum(expected) == data["by_length"][-1]["cumulative"]


@pytest.mark.parametrize(
    "args",
    [
        ["--size", "0x3"],
        ["--size", "9x9"],
        ["--size", "axb"],
        ["--size", "4x4", "--max-length", "0"],
        ["--size", "4x4", "--max-length", "-2"],
    ],
)
def test_cli_bad_input_is_one_error_line(args: list[str]) -> None:
    result = runner.invoke(app, ["paths", *args])
    assert result.exit_code in (1, 2), result.output  # 2: a number out of range
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert [line for line in result.output.splitlines() if line.startswith("Error:")] == [
        line for line in result.output.splitlines() if line.strip()
    ]
    assert len(result.output.strip().splitlines()) == 1


def test_help_lists_paths() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "paths" in result.output
