"""Review and correct a photo's doubtful reads: a local web page (``server``) or the terminal (``terminal``)."""
