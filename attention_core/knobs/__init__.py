"""The knobs: every setting named once, and the way text becomes settings and back.

- ``table``: the parameter table, ``PARAMS`` (one row per knob) and the names derived from it;
- ``param``: the row type, ``Param``, which parses and writes its own values, and the matrix's
  size limits;
- ``text``: numbers, labels and matrices read from text strictly, and written back exactly;
- ``settings``: ``Settings``, every knob's value with the matrix it applies to, and the book's
  defaults;
- ``links``: settings read from a link (or a command line) one parameter at a time, and the
  link that gives them back;
- ``settle``: values that depend on each other brought into range, each change said in a
  ``Notice``.

The config the core runs on (``attention_core.config.AttentionConfig``) validates its values
against the table, and ``Settings.config()`` builds it. Nothing is re-exported here: import
each name from its module.
"""
