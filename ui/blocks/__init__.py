"""What draws one part of a page with ``st``: ``show_*(page, ...)`` functions that read the
page's settings and trace and draw from specs; no arithmetic on tensors, no session state."""
