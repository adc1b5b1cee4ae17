"""`./bench docker`: the Docker path of docs/docker.md run for real (engine, standins, cycle, session)."""
