"""Build and install the toolkit: every ``.pyx`` below the packages becomes an
extension module of the same dotted name, so adding a kernel needs no edit here.
Cython translates and the C compiler compiles on every core (the tic-tac-toe engine
alone takes over a minute of one core at -O3)."""

import os
from pathlib import Path

from setuptools import Extension, find_packages, setup

PACKAGES = (
    "games",
    "records",
    "mcts",
    "solvers",
    "cfr",
    "agents",
    "analysis",
    "registry",
    "experiments",
    "webapp",
)
ROOT = Path(__file__).parent
CORES = os.cpu_count() or 1


def extensions():
    from Cython.Build import cythonize

    modules = []
    for package in PACKAGES:
        for pyx in sorted((ROOT / package).rglob("*.pyx")):
            relative = pyx.relative_to(ROOT)
            name = ".".join(relative.with_suffix("").parts)
            modules.append(Extension(name, [str(relative)], extra_compile_args=["-O3"]))
    return cythonize(
        modules,
        include_path=[str(ROOT)],
        compiler_directives={"language_level": 3},
        nthreads=CORES,
        quiet=True,
    )


setup(
    name="flipgames",
    version="0.1.0",
    description="Game-AI research toolkit: connection games with flips, tic-tac-toe "
    "variations, fast search and solvers, all as OpenSpiel games",
    packages=find_packages(include=[f"{p}*" for p in PACKAGES]),
    package_data={
        **{p: ["*.pxd", "*.pyx", "**/*.pxi", "**/*.json"] for p in PACKAGES},
        "webapp": ["templates/*.html", "static/*"],
    },
    ext_modules=extensions(),
    options={"build_ext": {"parallel": CORES}},
    python_requires=">=3.11",
    install_requires=[
        "open_spiel==2.0.2",
        "numpy>=1.26,<3",
        "scipy>=1.11",
        "joblib>=1.3",
        "matplotlib>=3.8",
        "tqdm>=4.66,<5",
        "dask[distributed]==2026.8.0",
        "cython==3.3.1",
        "openskill==6.2.0",
        "flask==3.1.3",
        "pygambit==16.7.0",  # Gambit's normal-form tools (payoff tables' .nfg, equilibria)
        "waitress==3.0.2",  # the web app's threaded WSGI server
    ],
    entry_points={"console_scripts": ["flipgames-web = webapp.cli:main"]},
    extras_require={
        # the versions the suite is run with; constraints.txt pins what they pull in
        "test": [
            "pytest==9.2.0",
            "pytest-xdist==3.8.0",
            "hypothesis==6.170.27",
            "playwright==1.65.2",
            "ruff==0.17.6",
            "cython-lint==0.22.1",
        ],
        "dev": ["flipgames[test]", "pre-commit==4.7.0"],
        # baselines the benchmarks measure against (experiments.bench_cfr: LiteEFG, an sdist
        # that compiles C++ and pulls in jax), left out of the default install
        "bench": ["LiteEFG==1.0.0"],
    },
)
