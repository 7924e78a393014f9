"""setuptools' side of pyproject.toml: the extension module mmdkit._mmdkit is built by the
project's CMake (src/python/CMakeLists.txt), not by setuptools' compiler driver.

Environment (all optional):
  MMDKIT_BUILD_DIR   a CMake build tree to build in (configured here when it has no
                     CMakeCache.txt; an existing tree, e.g. build/default, is reused as it is
                     configured: only the module's target is built, seconds when it is up to date);
                     default: a Release tree under setuptools' build_temp (configured each time);
  MMDKIT_CMAKE_ARGS  extra arguments for that configure (space separated);
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (CMake's own variable).
ccache is used when it is installed (CMAKE_<LANG>_COMPILER_LAUNCHER)."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        given = os.environ.get("MMDKIT_BUILD_DIR")
        build_dir = os.path.abspath(given or os.path.join(os.path.abspath(self.build_temp), "cmake"))
        # setup.py's own tree is configured every time (cheap when nothing changed), so that it
        # follows the interpreter of this pip; a tree given by MMDKIT_BUILD_DIR only when new.
        if not given or not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            args = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DMMDKIT_BUILD_TESTS=OFF",
                    "-DMMDKIT_BUILD_BENCH=OFF", "-DMMDKIT_WITH_PYTHON=ON", f"-DMMDKIT_PYTHON={sys.executable}"]
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            if shutil.which("ccache"):
                args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
            args += os.environ.get("MMDKIT_CMAKE_ARGS", "").split()
            subprocess.check_call(args)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "mmdkit_python"])
        built = glob.glob(os.path.join(build_dir, "python", "mmdkit", "_mmdkit*.so"))
        if len(built) != 1:
            raise RuntimeError(f"mmdkit: expected one _mmdkit*.so in {build_dir}/python/mmdkit, found {built}")
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(built[0], dest)


setup(ext_modules=[CMakeExtension("mmdkit._mmdkit")], cmdclass={"build_ext": CMakeBuild})
