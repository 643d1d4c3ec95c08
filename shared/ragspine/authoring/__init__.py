"""Tools for writing a domain folder, run by ``ragspine domain``: ``check`` and ``suggest``.

They read the folder as the engine would (screening, intent, routing, FAQ, the sample files'
passages), so they sit above every engine package; the engine never imports them.
"""
