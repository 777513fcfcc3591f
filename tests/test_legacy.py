"""Code written for older Pythons: read as that Python read it, line for line, so that its findings
can be reported (without fixes) where today's parsers reject the file."""

from __future__ import annotations

import ast

import pytest

from torchlint import legacy


@pytest.mark.parametrize(
    ("python2", "python3"),
    [
        pytest.param('print "loss", loss.data[0]\n', 'print("loss", loss.data[0])\n', id="print-keeps-columns"),
        pytest.param("print x,\n", "print(x,)\n", id="print-with-a-trailing-comma"),
        pytest.param("print\n", "print()\n", id="bare-print"),
        pytest.param('print"x"\n', 'print("x")\n', id="print-touching-its-argument"),
        pytest.param("print >>f, x\n", "print(  f, x)\n", id="print-to-a-file"),
        pytest.param("for i in r: print i\n", "for i in r: print(i)\n", id="print-after-a-header"),
        pytest.param("a = 1; print a\n", "a = 1; print(a)\n", id="print-after-a-semicolon"),
        pytest.param('print "a %d" % (\n    x)\n', 'print("a %d" % (\n    x))\n', id="print-over-two-lines"),
        pytest.param("try:\n    f()\nexcept (A, B), e:\n    g()\n", "try:\n    f()\nexcept (A, B) as e:\n    g()\n",
                     id="except-comma"),
        pytest.param('raise ValueError, "bad"\n', 'raise ValueError( "bad")\n', id="raise-comma"),
        pytest.param('exec "x = 1"\n', 'exec("x = 1")\n', id="exec"),
        pytest.param("n = 10L + 0777\n", "n = 10  + 0o777\n", id="long-and-octal-numbers"),
        pytest.param("if a <> b: pass\n", "if a != b: pass\n", id="not-equal"),
        pytest.param("s = ur'x'\n", "s =  r'x'\n", id="unicode-raw-string"),
        pytest.param("s = `x`\nprint s\n", "s = repr(x)\nprint(s)\n", id="backticks"),
        pytest.param("def f():\n\tif x:\n\t    print 'a'\n", "def f():\n        if x:\n            print('a')\n",
                     id="tabs-mixed-with-spaces"),
        pytest.param("print x.cuda(async=True).data\n", "print(x.cuda(asyn_=True).data)\n", id="and-async-as-a-name"),
    ],
)
def test_python2_forms_are_read_as_python3_line_for_line(python2, python3):
    assert legacy.from_python2(python2) == python3
    assert legacy.readable(python2) == (python3, "Python 2 code (linted as Python 2 read it, without fixes)")


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("print(x)\n", id="python3-print"),
        pytest.param("print = log\nprint(x)\n", id="print-as-a-name"),
        pytest.param("print.x = 1\n", id="print-attribute"),
    ],
)
def test_code_that_is_already_python3_is_not_respelled(source):
    assert legacy.from_python2(source) is None


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('print "x"\ndef broken(:\n    pass\n', id="another-error-too"),
        pytest.param("def f(:\n", id="no-python2-at-all"),
        pytest.param('s = """never closed\nprint "x"\n', id="unterminated-string"),
        pytest.param('print "a"\rprint "b"\n', id="lone-carriage-returns"),
        pytest.param("s = `x\n", id="unpaired-backtick"),
    ],
)
def test_what_python2_reading_cannot_make_parse_is_not_read(source):
    assert legacy.from_python2(source) is None


def test_a_whole_python2_file_keeps_every_line_where_it_was():
    source = 'import torch\nprint "a", \\\n    x.data\ntry:\n    pass\nexcept E, e:\n    print e\nprint\n'
    reading = legacy.from_python2(source)
    assert reading == 'import torch\nprint("a", \\\n    x.data)\ntry:\n    pass\nexcept E as e:\n    print(e)\nprint()\n'
    ast.parse(reading)


@pytest.mark.parametrize("source", ["x = 1;;\n", "x = 1\n; y = 2\n", ";\n", "if a:; print x\n"])
def test_empty_statements_do_not_crash_the_reading(source):
    assert legacy.from_python2(source) is None


def test_mixed_tabs_alone_are_read_as_python2():
    source = "def f(x):\n        y = x\n\treturn y\n"  # a tab reaches column 8, as Python 2 read it
    assert legacy.from_python2(source) == "def f(x):\n        y = x\n        return y\n"


def test_a_long_line_of_python2_numbers_is_read_in_linear_time():
    source = "x = [" + "0L, " * 50000 + "]\n"
    assert legacy.from_python2(source) == "x = [" + "0 , " * 50000 + "]\n"
