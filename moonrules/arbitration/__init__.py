"""Arbitration: rulings on records and single situations, as text, HTML and SVG pictures."""
