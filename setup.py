"""Build and install the toolkit: every ``.pyx`` below the packages becomes an
extension module of the same dotted name, so adding a kernel needs no edit here."""

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
        quiet=True,
    )


setup(
    name="flipgames",
    version="0.1.0",
    description="Game-AI research toolkit: connection games with flips, tic-tac-toe "
    "variations, fast search and solvers, all as OpenSpiel games",
    packages=find_packages(include=[f"{p}*" for p in PACKAGES]),
    package_data={
        **{p: ["*.pxd", "*.pyx", "**/*.json"] for p in PACKAGES},
        "webapp": ["templates/*.html", "static/*"],
    },
    ext_modules=extensions(),
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
        "test": ["pytest>=8", "pytest-xdist>=3.5", "hypothesis>=6.100", "playwright==1.65.2"],
    },
)
