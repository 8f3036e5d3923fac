"""The dashboard's user interface, by role: ``session`` (state, widgets, the run order),
``blocks`` (what draws a part of a page) and ``specs`` (plain-data charts and tables), with
``safe`` (escaping untrusted text) beneath them all."""
