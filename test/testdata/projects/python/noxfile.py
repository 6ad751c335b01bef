import nox

# A side-effect trap: nox runs this file to list its sessions; juju never does.
open("pwned-nox", "w").close()


@nox.session
def tests(session):
    session.run("pytest")


@nox.session(python=["3.11", "3.12"], name="typecheck")
def mypy(session):
    session.run("mypy")
