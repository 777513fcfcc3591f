"""Runs the programs of tests/programs in fresh processes without paying torch's import each time.

It imports torch (and the parts the programs' optimizers pull in lazily) once, then reads one
JSON request a line from stdin: `{"id", "cwd", "scripts", "stdout", "stderr", "timeout"}`. For
each it forks a child that runs the scripts in order in `cwd`, as `python script.py` would (the
script's folder first on `sys.path`, `__name__ == "__main__"`), with its output in the two named
files, and answers `{"id", "returncode"}` on stdout when the child has exited. A child is a fresh
copy of an interpreter that has only imported torch, so programs do not see each other's state.
"""

import json
import os
import runpy
import signal
import sys
import threading
import traceback

import torch  # noqa: F401  (imported once, inherited by every child)
import torch._dynamo  # noqa: F401  (torch.optim imports it at the first optimizer)
import torch.utils.data  # noqa: F401

REPLIES = os.dup(1)


def redirect(fd: int, path: str) -> None:
    target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(target, fd)
    os.close(target)


def run_child(request: dict) -> None:
    os.close(REPLIES)
    signal.alarm(request["timeout"])
    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    redirect(1, request["stdout"])
    redirect(2, request["stderr"])
    os.chdir(request["cwd"])
    sys.path[0] = request["cwd"]
    code = 0
    try:
        for script in request["scripts"]:
            sys.argv = [script]
            runpy.run_path(script, run_name="__main__")
    except SystemExit as exit_request:
        if isinstance(exit_request.code, int):
            code = exit_request.code
        elif exit_request.code is not None:
            print(exit_request.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def answer_when_done(request_id: int, pid: int) -> None:
    _, status = os.waitpid(pid, 0)
    reply = json.dumps({"id": request_id, "returncode": os.waitstatus_to_exitcode(status)}) + "\n"
    os.write(REPLIES, reply.encode())


def main() -> None:
    for line in sys.stdin.buffer:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            run_child(request)
        threading.Thread(target=answer_when_done, args=(request["id"], pid), daemon=True).start()
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join()


if __name__ == "__main__":
    main()
