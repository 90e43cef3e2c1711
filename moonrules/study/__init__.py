"""Bidding studies: double-dummy tricks over many seeded deals, and the tables drawn from them.

:mod:`moonrules.study.rows` turns deals into rows (pure, no optional dependency);
:mod:`moonrules.study.run` runs a study in chunks on a local process pool or a
Dask cluster and writes them to a directory (Parquet needs ``pyarrow``, Dask
``distributed``: ``pip install 'moonrules[study]'``); :mod:`moonrules.study.report`
turns the rows into bidding tables and plots (``matplotlib``).
Built on :mod:`moonrules.analysis`.
"""
