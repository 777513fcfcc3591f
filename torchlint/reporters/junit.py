"""JUnit XML, as Jenkins and GitLab read it (the Jenkins xUnit plugin's junit-10.xsd): one test
suite per file, one failed test case per finding; a clean run is one passing test case."""

from __future__ import annotations

from collections import defaultdict
from typing import TextIO
from xml.etree import ElementTree

from torchlint.reporters import RunReport


def _location(d) -> str:
    cell = f"cell {d.cell}:" if d.cell is not None else ""
    return f"{d.path}:{cell}{d.line}:{d.column}"


def render(report: RunReport, stream: TextIO) -> None:
    by_file = defaultdict(list)
    for d in report.diagnostics:
        by_file[d.path].append(d)
    total = str(len(report.diagnostics))
    root = ElementTree.Element("testsuites", name="torchlint", tests=total, failures=total, errors="0")
    if not by_file:
        suite = ElementTree.SubElement(root, "testsuite", name="torchlint", tests="1", failures="0", errors="0")
        ElementTree.SubElement(suite, "testcase", name="No problems found", classname="torchlint")
    for path, findings in by_file.items():
        count = str(len(findings))
        suite = ElementTree.SubElement(
            root, "testsuite", name=path, tests=count, failures=count, errors="0", file=path, package="torchlint"
        )
        for d in findings:
            where = _location(d)
            case = ElementTree.SubElement(suite, "testcase", name=f"{d.code} {where}", classname=path)
            failure = ElementTree.SubElement(case, "failure", type=d.code, message=f"{d.code} {d.message}")
            failure.text = f"{where}: {d.code} ({d.name}) {d.message}"
    ElementTree.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ElementTree.tostring(root, encoding="unicode"))
    stream.write("\n")
