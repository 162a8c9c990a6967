"""Rules engines: score board files. Nothing in this package knows about pixels."""
