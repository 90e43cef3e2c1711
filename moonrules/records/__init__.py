"""Game records: the JSON record format, the text notation, and replaying a record step by step."""
