"""The static checks of `./bench test`: the repository's files checked without starting anything.

docker_checks   compose.yaml (compose_checks) and every stack's Dockerfile (dockerfiles, then
                hadolint), as `./bench test` runs them
compose_checks  compose.yaml against the Compose specification and this benchmark's rules
dockerfiles     a stack's Dockerfile against this benchmark's rules
hadolint        the Dockerfile linter, from the runner's environment
images          image references: pinned, and matching a stack's patterns
k8s             deploy/k8s/ built with kustomize and validated with kubeconform
k8s_schemas     the JSON schemas kubeconform validates against, generated from pinned Go modules
scripts         ESLint over the runner's JavaScript, actionlint over the GitHub workflows
"""
