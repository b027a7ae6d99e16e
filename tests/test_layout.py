"""The house rules of the source tree (CONTRIBUTING.md, "Layout"), checked on every run.

A maintainer reads a name's import path to find its home, so each rule keeps that true:

- no module exists only to re-export names (a package's ``__init__`` is its public face and
  may gather its API; any other module that only imports is a shim);
- a private name (``_x``) is never imported from another module, and a private module
  (``pkg/_x.py``) is imported only from inside its own package;
- a first-party name is imported through one path only, everywhere;
- first-party modules are imported at the top of a module, never inside a function (a lazy
  import hides a cycle between modules instead of removing it);
- no product file passes 500 lines, and ``bot/`` has at most 8 top-level modules.

The checks read the source with :mod:`ast`; nothing is imported.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = ("bot", "engine")
#: Folders whose modules the rules cover: the product, its tests and its benchmarks.
SCANNED = ("bot", "engine", "tests", "benchmarks")
MAX_LINES = 500
MAX_BOT_TOP_LEVEL = 8
#: Names that look private but are conventions: gettext's ``_``, ``_n`` (plural) and ``N_``.
NOT_PRIVATE = {"_", "_n", "N_"}
#: Lazy imports kept on purpose, with why: a subcommand of the command line imports only what
#: it runs (``narrator backup`` must not load discord.py, the console or the bot).
LAZY_ALLOWED = {"bot.cli", "bot.hosting.commands"}


@dataclass
class Module:
    """What the rules need to know of one source file."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module
    #: (line, module imported from, name, alias) for each ``from X import name`` at top level.
    from_imports: list[tuple[int, str, str, str]] = field(default_factory=list)
    #: (line, module) for each first-party import inside a function or class body.
    nested_imports: list[tuple[int, str]] = field(default_factory=list)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _first_party(name: str) -> bool:
    return name.split(".")[0] in FIRST_PARTY


def _imports_inside_definitions(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import inside a function or class body, at any depth: one walk of the tree."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[tuple[ast.AST, bool]] = [(node, False) for node in tree.body]
    while stack:
        node, inside = stack.pop()
        if inside and isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        inside = inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        stack.extend((child, inside) for child in ast.iter_child_nodes(node))
    return found


@functools.cache
def load_modules() -> dict[str, Module]:
    """Every Python module under the scanned folders, parsed (once per test process: the
    checks below only read it)."""
    modules: dict[str, Module] = {}
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or ".venv" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            module = Module(_module_name(path), path, path.name == "__init__.py", tree)
            for node in tree.body:
                if isinstance(node, ast.ImportFrom):
                    source = _resolve(module, node)
                    for alias in node.names:
                        module.from_imports.append(
                            (node.lineno, source, alias.name, alias.asname or alias.name)
                        )
            for inner in _imports_inside_definitions(tree):
                if isinstance(inner, ast.Import):
                    for alias in inner.names:
                        if _first_party(alias.name):
                            module.nested_imports.append((inner.lineno, alias.name))
                else:
                    source = _resolve(module, inner)
                    if _first_party(source):
                        module.nested_imports.append((inner.lineno, source))
            modules[module.name] = module
    return modules


def _only_imports(module: Module) -> bool:
    body = list(module.tree.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    substantive = [
        node
        for node in body
        if not isinstance(node, ast.Import | ast.ImportFrom)
        and not (
            isinstance(node, ast.Assign)
            and all(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        )
    ]
    has_imports = any(isinstance(node, ast.Import | ast.ImportFrom) for node in body)
    return has_imports and not substantive


def _private_component(module_name: str) -> int | None:
    """The index of the first private component of a dotted module name, if any."""
    for index, part in enumerate(module_name.split(".")):
        if part.startswith("_") and not part.startswith("__"):
            return index
    return None


def _may_import_module(importer: str, imported: str) -> bool:
    """A private module is importable from inside the package that holds it (and from the
    tests of that package: ``tests/bot/gateway/`` stands inside ``bot.gateway``)."""
    index = _private_component(imported)
    if index is None:
        return True
    owner = imported.split(".")[:index]
    return importer.removeprefix("tests.").split(".")[: len(owner)] == owner


def reexport_only_modules(modules: dict[str, Module]) -> list[str]:
    return sorted(
        name
        for name, module in modules.items()
        if not module.is_package and _first_party(name) and _only_imports(module)
    )


def private_crossings(modules: dict[str, Module]) -> list[str]:
    found = []
    for module in modules.values():
        for line, source, name, _alias in module.from_imports:
            if not _first_party(source):
                continue
            where = f"{module.path.relative_to(ROOT)}:{line}"
            if name.startswith("_") and not name.startswith("__") and name not in NOT_PRIVATE:
                if f"{source}.{name}" not in modules:  # importing a private submodule
                    found.append(f"{where}: {name} from {source}")
                    continue
                if not _may_import_module(module.name, f"{source}.{name}"):
                    found.append(f"{where}: private module {source}.{name}")
                continue
            if not _may_import_module(module.name, source):
                found.append(f"{where}: {name} from private module {source}")
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if _first_party(alias.name) and not _may_import_module(module.name, alias.name):
                        where = f"{module.path.relative_to(ROOT)}:{node.lineno}"
                        found.append(f"{where}: private module {alias.name}")
    return found


def _bound(module: Module) -> set[str]:
    """Names a module defines itself (not by importing them)."""
    names: set[str] = set()
    for node in module.tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def home_of(modules: dict[str, Module], source: str, name: str) -> str:
    """The module that defines ``name`` imported from ``source``, following re-exports."""
    for _ in range(12):
        module = modules.get(source)
        if module is None or name in _bound(module):
            return source
        for _line, inner_source, inner_name, alias in module.from_imports:
            if alias == name and _first_party(inner_source):
                source, name = inner_source, inner_name
                break
        else:
            return source
    return source


def _inside(importer: str, package: str) -> bool:
    return importer == package or importer.startswith(package + ".")


def expected_source(modules: dict[str, Module], importer: str, home: str, name: str) -> str:
    """The one path to import ``name`` (defined in ``home``) from ``importer``.

    Inside the package that holds it, from its home; from outside, through the face of the
    outermost package that exports it, which a private module's package must do.
    """
    placed = importer  # tests import names as any outside code does: through the face
    parts = home.split(".")
    for end in range(1, len(parts)):
        package = ".".join(parts[:end])
        face = modules.get(package)
        if _inside(placed, package) or face is None or not face.is_package:
            continue
        for _line, source, inner, alias in face.from_imports:
            if alias == name and home_of(modules, source, inner) == home:
                return package
    return home


def names_with_several_paths(modules: dict[str, Module]) -> list[str]:
    found = []
    for module in modules.values():
        for line, source, name, _alias in module.from_imports:
            if not _first_party(source) or f"{source}.{name}" in modules:
                continue
            home = home_of(modules, source, name)
            if home not in modules:
                continue
            if module.is_package and _inside(home, module.name):
                continue  # a face gathers its package's names from their homes
            expected = expected_source(modules, module.name, home, name)
            if source != expected:
                where = f"{module.path.relative_to(ROOT)}:{line}"
                found.append(f"{where}: {name} from {source}, not {expected}")
    return sorted(found)


def faces_imported_from_inside(modules: dict[str, Module]) -> list[str]:
    """A package's modules import each other, never the face that imports them (a cycle)."""
    found = []
    for module in modules.values():
        if module.is_package:
            continue
        for line, source, name, _alias in module.from_imports:
            as_module = f"{source}.{name}"
            for imported in (source, as_module):
                if imported == source and as_module in modules:
                    continue  # ``from package import submodule`` names the submodule
                face = modules.get(imported)
                cycle = face is not None and any(
                    inner == module.name for _l, inner, _n, _a in face.from_imports
                )
                inside = module.name.startswith(imported + ".") and imported.count(".")
                if cycle and face.is_package and inside and _first_party(imported):
                    where = f"{module.path.relative_to(ROOT)}:{line}"
                    found.append(f"{where}: imports its own package's face {imported}")
    return sorted(set(found))


def lazy_imports(modules: dict[str, Module]) -> list[str]:
    return sorted(
        f"{module.path.relative_to(ROOT)}:{line}: {source}"
        for module in modules.values()
        if _first_party(module.name) and module.name not in LAZY_ALLOWED
        for line, source in module.nested_imports
    )


def long_files() -> list[str]:
    found = []
    for folder in FIRST_PARTY:
        for path in (ROOT / folder).rglob("*.py"):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                found.append(f"{path.relative_to(ROOT)}: {lines} lines")
    return sorted(found)


def bot_top_level() -> list[str]:
    return sorted(path.name for path in (ROOT / "bot").glob("*.py"))


def test_no_module_only_reexports() -> None:
    assert reexport_only_modules(load_modules()) == []


def test_no_private_name_crosses_a_module() -> None:
    assert private_crossings(load_modules()) == []


def test_one_import_path_per_name() -> None:
    assert names_with_several_paths(load_modules()) == []


def test_no_module_imports_its_own_package_face() -> None:
    assert faces_imported_from_inside(load_modules()) == []


def undocumented_packages(modules: dict[str, Module]) -> list[str]:
    """A package's face says in its docstring what the package holds."""
    return sorted(
        name
        for name, module in modules.items()
        if module.is_package
        and _first_party(name)
        and len((ast.get_docstring(module.tree) or "").split()) < 3
    )


def test_every_package_says_what_it_holds() -> None:
    assert undocumented_packages(load_modules()) == []


def test_no_lazy_first_party_import() -> None:
    assert lazy_imports(load_modules()) == []


def test_no_product_file_passes_500_lines() -> None:
    assert long_files() == []


def test_bot_has_few_top_level_modules() -> None:
    assert len(bot_top_level()) <= MAX_BOT_TOP_LEVEL, bot_top_level()


if __name__ == "__main__":  # a report of every finding, for the maintainer moving files
    mods = load_modules()
    for title, items in [
        ("re-export-only modules", reexport_only_modules(mods)),
        ("private crossings", private_crossings(mods)),
        ("names with several paths", names_with_several_paths(mods)),
        ("faces imported from inside", faces_imported_from_inside(mods)),
        ("undocumented packages", undocumented_packages(mods)),
        ("lazy first-party imports", lazy_imports(mods)),
        ("long files", long_files()),
        ("bot top level", bot_top_level()),
    ]:
        print(f"## {title}: {len(items)}")
        for item in items:
            print("  ", item)
