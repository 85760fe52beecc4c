//! The throughput optimum of a multipath connection over paths that share links: maximise
//! the sum of the path rates subject to, per link, the rates of the paths crossing it
//! summing to at most its capacity ([S4] §2.1). Few paths, so the exact optimum is found by
//! enumerating the vertices of the feasible polytope.

/// One link: the paths that cross it and its capacity.
#[derive(Clone, Debug, PartialEq)]
pub struct Capacity {
    pub paths: Vec<usize>,
    pub limit: f64,
}

/// The optimal rates per path and their sum; `None` without paths or with more than 6 of
/// them (vertex enumeration is exponential).
pub fn max_total(n_paths: usize, links: &[Capacity]) -> Option<(Vec<f64>, f64)> {
    if n_paths == 0 || n_paths > 6 {
        return None;
    }
    // Every constraint as (coefficients, bound): the links and x_i >= 0 (as -x_i <= 0).
    let mut rows: Vec<(Vec<f64>, f64)> = links
        .iter()
        .map(|l| ((0..n_paths).map(|i| if l.paths.contains(&i) { 1.0 } else { 0.0 }).collect(), l.limit))
        .collect();
    rows.extend((0..n_paths).map(|i| ((0..n_paths).map(|j| if i == j { -1.0 } else { 0.0 }).collect(), 0.0)));
    let feasible = |x: &[f64]| rows.iter().all(|(a, b)| a.iter().zip(x).map(|(a, x)| a * x).sum::<f64>() <= b + 1e-9);
    let mut best: Option<(Vec<f64>, f64)> = None;
    for subset in combinations(rows.len(), n_paths) {
        let a: Vec<Vec<f64>> = subset.iter().map(|&r| rows[r].0.clone()).collect();
        let b: Vec<f64> = subset.iter().map(|&r| rows[r].1).collect();
        let Some(x) = solve(a, b) else { continue };
        if !feasible(&x) {
            continue;
        }
        let total: f64 = x.iter().sum();
        if best.as_ref().map_or(true, |(_, t)| total > t + 1e-9) {
            best = Some((x, total));
        }
    }
    best
}

/// All k-element subsets of 0..n, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(pick.clone());
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else { return out };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// Gaussian elimination with partial pivoting; `None` for a singular system.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in 0..n {
            if r != c {
                let f = a[r][c] / a[c][c];
                for k in c..n {
                    a[r][k] -= f * a[c][k];
                }
                b[r] -= f * b[c];
            }
        }
    }
    Some((0..n).map(|i| b[i] / a[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(paths: &[usize], limit: f64) -> Capacity {
        Capacity { paths: paths.to_vec(), limit }
    }

    #[test]
    fn s4_stated_constraints_have_the_optimum_30_10_50() {
        // x1 + x2 <= 40, x2 + x3 <= 60, x1 + x3 <= 80 (S4 §2.1; algorithms.md §11 item 30).
        let (x, total) = max_total(3, &[cap(&[0, 1], 40.0), cap(&[1, 2], 60.0), cap(&[0, 2], 80.0)]).unwrap();
        assert!((total - 90.0).abs() < 1e-9, "{total}");
        for (got, want) in x.iter().zip([30.0, 10.0, 50.0]) {
            assert!((got - want).abs() < 1e-9, "{x:?}");
        }
        // The paper's printed point (10, 30, 50) is optimal only with the last two swapped.
        let (x, _) = max_total(3, &[cap(&[0, 1], 40.0), cap(&[1, 2], 80.0), cap(&[0, 2], 60.0)]).unwrap();
        assert!(x.iter().zip([10.0, 30.0, 50.0]).all(|(g, w)| (g - w).abs() < 1e-9), "{x:?}");
    }

    #[test]
    fn one_path_or_disjoint_paths_take_their_own_bottlenecks() {
        let (x, total) = max_total(2, &[cap(&[0], 10.0), cap(&[1], 25.0), cap(&[0], 100.0)]).unwrap();
        assert_eq!((x, total), (vec![10.0, 25.0], 35.0));
        assert_eq!(combinations(4, 2).len(), 6);
        assert!(max_total(0, &[]).is_none());
    }
}
