import nox


@nox.session
def tests(session):
    session.run("pytest")


@nox.session(python=["3.11", "3.12"], name="typecheck")
def mypy(session):
    session.run("mypy")
