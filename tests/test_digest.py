"""digest.sha256_hex is hashlib's sha256, whichever implementation it picks."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from boggle_i18n import digest


@pytest.mark.parametrize("size", [0, 1, 55, 64, 1000, digest.SMALL - 1, digest.SMALL, digest.SMALL + 1, 3 << 20])
def test_same_digest_as_hashlib(size: int) -> None:
    data = bytes((i * 7919) % 251 for i in range(size))
    assert digest.sha256_hex(data) == hashlib.sha256(data).hexdigest()
    assert digest.sha256_hex(bytearray(data)) == digest.sha256_hex(memoryview(data)) == hashlib.sha256(data).hexdigest()


def test_small_data_does_not_load_openssl_and_large_data_does() -> None:
    code = (
        "import sys; from boggle_i18n.digest import sha256_hex, SMALL\n"
        "sha256_hex(b'x' * (SMALL - 1)); print('_hashlib' in sys.modules)\n"
        "sha256_hex(b'x' * SMALL); print('_hashlib' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, env={"PYTHONPATH": ":".join(sys.path)}
    ).stdout.split()
    assert out == ["False", "True"]
