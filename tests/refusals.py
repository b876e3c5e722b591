"""How a command refuses bad input, as the tests check it: one ``error:``
line on stderr, status 2, nothing on stdout."""


def refused(result, named=""):
    """Is ``result`` one ``error:`` line naming ``named``, status 2, no output?"""
    lines = result.stderr.strip().splitlines()
    return (
        result.returncode == 2
        and not result.stdout
        and len(lines) == 1
        and lines[0].startswith("error: ")
        and named in lines[0]
    )
