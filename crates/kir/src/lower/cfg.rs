//! Control-flow analysis of one function: reachability, immediate dominators (Cooper, Harvey and
//! Kennedy, "A Simple, Fast Dominance Algorithm"), dominance frontiers and iterated dominance
//! frontiers, used to place block parameters for promoted variables (Cytron et al.).

/// A CFG over blocks `0..n` (block 0 is the entry).
#[derive(Debug, Clone)]
pub(crate) struct Cfg {
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
    /// Reverse post-order of the reachable blocks.
    pub rpo: Vec<usize>,
    /// Position of each block in `rpo` (`usize::MAX` when unreachable).
    pub rpo_index: Vec<usize>,
    /// Immediate dominator (`None` for the entry and unreachable blocks).
    pub idom: Vec<Option<usize>>,
    /// Dominance frontier of each reachable block.
    pub frontier: Vec<Vec<usize>>,
}

impl Cfg {
    /// Builds the CFG; edges from unreachable blocks are ignored.
    pub fn new(succs: Vec<Vec<usize>>) -> Cfg {
        let n = succs.len();
        // Iterative post-order DFS from the entry.
        let mut rpo = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        if n > 0 {
            let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
            visited[0] = true;
            while let Some(&mut (b, ref mut next)) = stack.last_mut() {
                if let Some(&s) = succs[b].get(*next) {
                    *next += 1;
                    if s < n && !visited[s] {
                        visited[s] = true;
                        stack.push((s, 0));
                    }
                } else {
                    rpo.push(b);
                    stack.pop();
                }
            }
            rpo.reverse();
        }
        let mut rpo_index = vec![usize::MAX; n];
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index[b] = i;
        }
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            if rpo_index[b] == usize::MAX {
                continue;
            }
            for &s in ss {
                if s < n && !preds[s].contains(&b) {
                    preds[s].push(b);
                }
            }
        }
        let mut cfg = Cfg {
            succs,
            preds,
            rpo,
            rpo_index,
            idom: vec![None; n],
            frontier: vec![Vec::new(); n],
        };
        cfg.compute_dominators();
        cfg.compute_frontiers();
        cfg
    }

    pub fn reachable(&self, b: usize) -> bool {
        self.rpo_index.get(b).is_some_and(|&i| i != usize::MAX)
    }

    fn compute_dominators(&mut self) {
        let n = self.succs.len();
        if n == 0 {
            return;
        }
        // Work with "doms" where the entry dominates itself.
        let mut doms: Vec<Option<usize>> = vec![None; n];
        doms[0] = Some(0);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in self.rpo.iter().skip(1) {
                let mut new_idom: Option<usize> = None;
                for &p in &self.preds[b] {
                    if doms[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => self.intersect(&doms, p, cur),
                    });
                }
                if new_idom.is_some() && doms[b] != new_idom {
                    doms[b] = new_idom;
                    changed = true;
                }
            }
        }
        for (b, dom) in doms.into_iter().enumerate() {
            self.idom[b] = if b == 0 { None } else { dom };
        }
    }

    fn intersect(&self, doms: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
        while a != b {
            while self.rpo_index[a] > self.rpo_index[b] {
                a = doms[a].unwrap_or(0);
            }
            while self.rpo_index[b] > self.rpo_index[a] {
                b = doms[b].unwrap_or(0);
            }
        }
        a
    }

    fn compute_frontiers(&mut self) {
        for &b in &self.rpo {
            if self.preds[b].len() < 2 {
                continue;
            }
            let Some(idom_b) = self.idom[b] else { continue };
            for &p in &self.preds[b] {
                let mut runner = p;
                while runner != idom_b {
                    if !self.frontier[runner].contains(&b) {
                        self.frontier[runner].push(b);
                    }
                    match self.idom[runner] {
                        Some(next) => runner = next,
                        None => break,
                    }
                }
            }
        }
    }

    /// The iterated dominance frontier of a set of blocks.
    pub fn iterated_frontier(&self, defs: &[usize]) -> Vec<usize> {
        let n = self.succs.len();
        let mut in_result = vec![false; n];
        let mut result = Vec::new();
        let mut work: Vec<usize> = defs.to_vec();
        let mut queued = vec![false; n];
        for &d in defs {
            if d < n {
                queued[d] = true;
            }
        }
        while let Some(b) = work.pop() {
            for &f in &self.frontier[b] {
                if !in_result[f] {
                    in_result[f] = true;
                    result.push(f);
                    if !queued[f] {
                        queued[f] = true;
                        work.push(f);
                    }
                }
            }
        }
        result.sort_unstable();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_header_is_in_the_frontier_of_the_latch() {
        // 0 → 1; 1 → 2, 3; 2 → 1; 3 exit.
        let cfg = Cfg::new(vec![vec![1], vec![2, 3], vec![1], vec![]]);
        assert_eq!(cfg.idom, vec![None, Some(0), Some(1), Some(1)]);
        assert_eq!(cfg.frontier[2], vec![1]);
        assert_eq!(cfg.iterated_frontier(&[2]), vec![1]);
    }

    #[test]
    fn diamond_join_gets_a_parameter() {
        // 0 → 1, 2; 1 → 3; 2 → 3; 4 unreachable → 3.
        let cfg = Cfg::new(vec![vec![1, 2], vec![3], vec![3], vec![], vec![3]]);
        assert_eq!(cfg.idom[3], Some(0));
        assert!(!cfg.reachable(4));
        assert_eq!(cfg.preds[3], vec![1, 2]);
        assert_eq!(cfg.iterated_frontier(&[1]), vec![3]);
        assert_eq!(cfg.iterated_frontier(&[0]), Vec::<usize>::new());
    }
}
