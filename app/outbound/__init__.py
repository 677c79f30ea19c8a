"""Outgoing HTTP to addresses the public gives us (webhook subscribers): the URL safety
rules (no private targets, checked at every connection) and the delivery transport.
"""
