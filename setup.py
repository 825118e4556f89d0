"""Build steps pyproject.toml cannot declare: the C modules (fast engine, prover), the shipped data folders and
the static site's WebAssembly solver.

The C kernel (boggle_i18n/solver/_kernel.c) is optional: where no C compiler is
found the install still succeeds, and the fast engine runs its numba kernel
instead (the `numba` extra), saying so.
"""

import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

DATA = ("pipelines", "lexicons")


class BuildPyWithData(build_py):
    """Copy the recipes and language data into the package as boggle_i18n/_data/ (resources.py looks there first)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them beside the package
        for name in DATA:
            self.copy_tree(name, os.path.join(self.build_lib, "boggle_i18n", "_data", name))
        # The static site's in-browser solver (`export-web`), built like the C kernel where clang and lld are
        # present; without them the install still succeeds and export-web builds it on first use or says why.
        wasm = os.path.join(os.path.abspath(self.build_lib), "boggle_i18n", "web", "wasm", "solver.wasm")
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run([sys.executable, "-m", "boggle_i18n.web.wasmbuild", wasm], cwd=here, check=False)


compile_args = [] if sys.platform == "win32" else ["-O3", "-std=c11"]
kernel = Extension(
    "boggle_i18n.solver._kernel",
    sources=["boggle_i18n/solver/_kernel.c"],
    extra_compile_args=compile_args,
    optional=True,
)
# The prover's bound and branching (`prove`); optional like the kernel: without it `prove` says it was not built.
bound = Extension(
    "boggle_i18n.prove._bound",
    sources=["boggle_i18n/prove/_bound.c"],
    extra_compile_args=compile_args,
    optional=True,
)

# The same source with int64 values, for the rare class whose words score past what int32 values hold (huge
# scoring tables): _bound.c says why the everyday build counts in int32.
bound_wide = Extension(
    "boggle_i18n.prove._bound_wide",
    sources=["boggle_i18n/prove/_bound.c"],
    define_macros=[("WIDE_VALUES", "1")],
    extra_compile_args=compile_args,
    optional=True,
)

# The command. pip's generated console-script wrapper imports `re` before anything else (to trim argv[0]'s
# `.exe`), about a tenth of a cold `solve`; POSIX installs get the plain scripts/boggle-i18n instead (pip
# points its `#!python` line at the installing interpreter). Windows needs the generated .exe launcher.
if sys.platform == "win32":
    command = {"entry_points": {"console_scripts": ["boggle-i18n = boggle_i18n.launch:main"]}}
else:
    command = {"scripts": ["scripts/boggle-i18n"]}

setup(ext_modules=[kernel, bound, bound_wide], cmdclass={"build_py": BuildPyWithData}, **command)
