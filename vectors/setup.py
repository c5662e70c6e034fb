"""setuptools hooks for attest-harness-vectors; the metadata is in pyproject.toml.

pip builds a local path in place, and setuptools would leave build/ and an .egg-info folder here, where a vector file
removed since the last build would still be packaged from build/lib: every build works in a fresh temporary folder.
`attest_harness_vectors.data` is this folder itself: its files are package data (exec-adapter-example.py included, as
a file to read), never modules.
"""
import atexit
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

scratch = tempfile.mkdtemp(prefix="attest-harness-vectors-build-")
atexit.register(shutil.rmtree, scratch, True)


class BuildPy(build_py):
    def find_package_modules(self, package, package_dir):
        if package == "attest_harness_vectors.data":
            return []
        return super().find_package_modules(package, package_dir)


# `license` here, not in pyproject.toml: every setuptools from 61 (offline on Debian 12) to the newest reads it.
setup(license="Apache-2.0", cmdclass={"build_py": BuildPy},
      options={"build": {"build_base": scratch}, "egg_info": {"egg_base": scratch}})
