"""The load generators, k6, oha and pgbench: their command lines, what they report, and one run of
one to completion; what they send (a read scenario's URL list, each dialect's paths).

k6, oha, pgbench   each one's command line, and its output read (pure parsers)
figures            what a load generator reports for a stage or step, whichever sent it
process            one run to completion, its request rate reported as it runs
urls               a read scenario's URL list, which oha sends
dialects           each dialect's paths and bodies, for the URL lists and the SQL-count probes
generators         k6 and oha compared on one read scenario, and the URL list by hand
"""
