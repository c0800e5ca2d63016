//! The Kirchhoff system of a circuit: a sparse symmetric positive definite system (the
//! reduced graph Laplacian), solved by conjugate gradients with a Jacobi preconditioner.
//!
//! HEXY "solves the Kirchhoff system of linear equations for electric potential using a method
//! of iterations" (Anshelevich §6); conjugate gradients is such a method and converges in at
//! most n steps in exact arithmetic. The circuits here have at most 19×19+2 nodes and about
//! six links per node, so a hand-written CSR matrix is all that is needed; [`dense_solve`]
//! (Gaussian elimination with partial pivoting) is the reference it is tested and timed
//! against (`benches/eval.rs`).

/// A symmetric matrix in compressed sparse row form plus its diagonal.
#[derive(Clone, Debug, Default)]
pub struct Sparse {
    /// Row starts (length n + 1).
    pub row: Vec<u32>,
    /// Column of each off-diagonal entry.
    pub col: Vec<u32>,
    /// Value of each off-diagonal entry.
    pub val: Vec<f64>,
    /// The diagonal.
    pub diag: Vec<f64>,
}

impl Sparse {
    /// Size.
    pub fn n(&self) -> usize {
        self.diag.len()
    }

    /// `y = A x`.
    #[inline]
    pub fn mul(&self, x: &[f64], y: &mut [f64]) {
        for i in 0..self.n() {
            let mut s = self.diag[i] * x[i];
            for k in self.row[i] as usize..self.row[i + 1] as usize {
                s += self.val[k] * x[self.col[k] as usize];
            }
            y[i] = s;
        }
    }

    /// The dense matrix (for tests and the reference solver).
    pub fn to_dense(&self) -> Vec<Vec<f64>> {
        let n = self.n();
        let mut a = vec![vec![0.0; n]; n];
        for (i, row) in a.iter_mut().enumerate() {
            row[i] = self.diag[i];
            for k in self.row[i] as usize..self.row[i + 1] as usize {
                row[self.col[k] as usize] += self.val[k];
            }
        }
        a
    }
}

/// Solves `A x = b` by Jacobi-preconditioned conjugate gradients, starting from `x` (zeros
/// are fine), until the residual's norm is below `tol · ‖b‖` or after `max_iter` steps.
/// Returns the number of iterations. `A` must be symmetric positive definite.
pub fn cg(a: &Sparse, b: &[f64], x: &mut [f64], tol: f64, max_iter: usize) -> usize {
    let n = a.n();
    let mut r = vec![0.0; n];
    let mut z = vec![0.0; n];
    let mut p = vec![0.0; n];
    let mut q = vec![0.0; n];
    a.mul(x, &mut q);
    let mut bnorm = 0.0;
    for i in 0..n {
        r[i] = b[i] - q[i];
        bnorm += b[i] * b[i];
    }
    let bnorm = bnorm.sqrt();
    if bnorm == 0.0 {
        x.iter_mut().for_each(|v| *v = 0.0);
        return 0;
    }
    let inv: Vec<f64> = a
        .diag
        .iter()
        .map(|&d| if d > 0.0 { 1.0 / d } else { 1.0 })
        .collect();
    let mut rz = 0.0;
    for i in 0..n {
        z[i] = inv[i] * r[i];
        p[i] = z[i];
        rz += r[i] * z[i];
    }
    for it in 0..max_iter {
        let rnorm = r.iter().map(|v| v * v).sum::<f64>().sqrt();
        if rnorm <= tol * bnorm {
            return it;
        }
        a.mul(&p, &mut q);
        let pq: f64 = p.iter().zip(&q).map(|(a, b)| a * b).sum();
        if pq <= 0.0 {
            return it;
        }
        let alpha = rz / pq;
        let mut rz_new = 0.0;
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            z[i] = inv[i] * r[i];
            rz_new += r[i] * z[i];
        }
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..n {
            p[i] = z[i] + beta * p[i];
        }
    }
    max_iter
}

/// Reference: Gaussian elimination with partial pivoting on the dense matrix. O(n³).
pub fn dense_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for k in 0..n {
        let piv = (k..n)
            .max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))
            .unwrap_or(k);
        a.swap(k, piv);
        b.swap(k, piv);
        let d = a[k][k];
        if d == 0.0 {
            continue;
        }
        for i in k + 1..n {
            let f = a[i][k] / d;
            if f != 0.0 {
                for j in k..n {
                    a[i][j] -= f * a[k][j];
                }
                b[i] -= f * b[k];
            }
        }
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        let mut s = b[k];
        for j in k + 1..n {
            s -= a[k][j] * x[j];
        }
        x[k] = if a[k][k] != 0.0 { s / a[k][k] } else { 0.0 };
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cg_matches_dense_on_a_path() {
        // Path Laplacian with Dirichlet ends: tridiagonal (2, -1).
        let n = 20;
        let mut m = Sparse::default();
        m.row.push(0);
        for i in 0..n {
            if i > 0 {
                m.col.push(i as u32 - 1);
                m.val.push(-1.0);
            }
            if i + 1 < n {
                m.col.push(i as u32 + 1);
                m.val.push(-1.0);
            }
            m.row.push(m.col.len() as u32);
            m.diag.push(2.0);
        }
        let mut b = vec![0.0; n];
        b[0] = 1.0;
        let mut x = vec![0.0; n];
        let it = cg(&m, &b, &mut x, 1e-12, 1000);
        assert!(it <= n + 1);
        let y = dense_solve(m.to_dense(), b);
        for i in 0..n {
            assert!((x[i] - y[i]).abs() < 1e-9);
            // Linear potential 1 - (i+1)/(n+1).
            assert!((x[i] - (1.0 - (i + 1) as f64 / (n + 1) as f64)).abs() < 1e-9);
        }
    }
}
