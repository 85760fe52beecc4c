//! Whether a detector's grouping of subflows is right, by the rule every pathpool output
//! scores with ([S0] §IV-B, `pathpool_scenario::mptcp_outcome::correct`), for analyses in
//! Python that score decisions.csv rows themselves (e.g. per interval in force).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// True when `groups` (one per subflow; 0: not bottlenecked) groups the subflows exactly as
/// `truth` does (one bottleneck id per subflow).
#[pyfunction]
pub fn correct_grouping(groups: Vec<u32>, truth: Vec<u32>) -> PyResult<bool> {
    if groups.len() != truth.len() {
        return Err(PyValueError::new_err(format!(
            "groups has {} subflows and truth {}; expected one group and one truth per subflow",
            groups.len(),
            truth.len()
        )));
    }
    Ok(pathpool_scenario::mptcp_outcome::correct(&groups, &truth))
}
