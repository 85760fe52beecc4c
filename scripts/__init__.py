"""pathpool's analysis and table scripts, one package run from the repository's top:

    python3 -m scripts.NAME [ARGS]

Modules other scripts share (doc_table, bursts, queue_phase, mptcp_acks, ack_pattern,
liar_scenarios) are imported as ``scripts.NAME``, never by editing the import path; scripts/README.md
lists every script with the make target or test that runs it.
"""
