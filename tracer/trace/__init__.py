"""The trace file format and nothing else: writer, reader, compact index, typed header, redaction, normalisation, transitions."""
