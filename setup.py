"""The one build step pyproject.toml cannot declare (everything else is there).

The bundled games and their schemas stay at the top of the repository
(``rulesets/``, ``schemas/``); a wheel carries copies of both inside the
package as ``interpreter/_bundled/``, where ``interpreter.content.bundled``
finds them. An editable install reads them in place, so nothing is copied.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLED = ("rulesets", "schemas")


class BuildPyWithContent(build_py):
    """``build_py`` that also copies the bundled data folders into the package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in BUNDLED:
            target = Path(self.build_lib, "interpreter", "_bundled", name)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / name, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.py[co]", ".*"))


setup(cmdclass={"build_py": BuildPyWithContent})
