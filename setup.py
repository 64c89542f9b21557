"""The folders core/, app/ and resources/ install as one import package, `simsift`
(simsift.core, simsift.app, simsift.resources), so a user's environment gains no top-level
`core` or `app` that another distribution could collide with. Everything else is in
pyproject.toml; only this mapping needs code."""

from setuptools import find_namespace_packages, setup

FOLDERS = ("core", "app", "resources")

setup(
    packages=[
        f"simsift.{name}"
        for name in find_namespace_packages(include=[f"{f}*" for f in FOLDERS])
        if "__pycache__" not in name
    ],
    package_dir={f"simsift.{f}": f for f in FOLDERS},
)
