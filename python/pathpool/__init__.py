"""pathpool from Python: scenario runs as pandas DataFrames, parameter sweeps on local cores
or a Dask cluster, and the papers' reproductions (docs/python.md).

Everything is computed by the same Rust code as the ``pathpool`` command line; this package
only converts arguments and reads the outputs into pandas.
"""

from pathpool import _pathpool
from pathpool._pathpool import ScenarioError, __version__
from pathpool._capture import Packet, packets
from pathpool._cluster import local_cluster
from pathpool._detect import detect
from pathpool._grouping import correct_grouping
from pathpool._result import Result, run, to_toml
from pathpool._reproduce import Reproduction, papers, reproduce
from pathpool._sweep import sweep
from pathpool._units import quantity

# Stored reproduction results are keyed on the build that made them: this module's file.
_pathpool.use_build_of(_pathpool.__file__)

__all__ = ["run", "Result", "detect", "sweep", "local_cluster", "reproduce", "Reproduction", "papers", "to_toml", "packets", "Packet", "quantity", "correct_grouping", "ScenarioError", "__version__"]
