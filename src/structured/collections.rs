//! Sequence helpers: action folding, longest common subsequence, slice pairing.

use crate::plan::Action;

/// Folds a child's action into its parent's: any difference makes an update.
pub fn compare_actions(current: Action, next: Action) -> Action {
    if next == Action::NoOp {
        return current;
    }
    if current != next {
        return Action::Update;
    }
    current
}

/// The longest common subsequence of `xs` and `ys` (as indices into `xs`), choosing among
/// equally long ones the way OpenTofu does.
pub fn longest_common_subsequence<T: PartialEq>(xs: &[T], ys: &[T]) -> Vec<usize> {
    if xs.is_empty() || ys.is_empty() {
        return Vec::new();
    }
    let w = xs.len();
    let mut c = vec![0usize; xs.len() * ys.len()];
    let mut eqs = vec![false; xs.len() * ys.len()];
    for y in 0..ys.len() {
        for x in 0..xs.len() {
            let i = w * y + x;
            if xs[x] == ys[y] {
                eqs[i] = true;
                c[i] = if x == 0 || y == 0 {
                    1
                } else {
                    c[w * (y - 1) + (x - 1)] + 1
                };
            } else {
                let l = if x > 0 { c[i - 1] } else { 0 };
                let u = if y > 0 { c[w * (y - 1) + x] } else { 0 };
                c[i] = l.max(u);
            }
        }
    }
    let mut seq = vec![0usize; c[c.len() - 1]];
    let (mut x, mut y) = (xs.len() as isize - 1, ys.len() as isize - 1);
    let mut i = seq.len() as isize - 1;
    while x > -1 && y > -1 && i > -1 {
        let idx = w * y as usize + x as usize;
        if eqs[idx] {
            seq[i as usize] = x as usize;
            x -= 1;
            y -= 1;
            i -= 1;
        } else {
            let l = if x > 0 { c[idx - 1] } else { 0 };
            let u = if y > 0 {
                c[w * (y as usize - 1) + x as usize]
            } else {
                0
            };
            if l > u {
                x -= 1;
            } else {
                y -= 1;
            }
        }
    }
    seq
}

/// Walks two sequences in step around their longest common subsequence, calling
/// `process(before_ix, after_ix)` for each pair; an index equal to the length of its
/// sequence means "absent" (an addition or a removal).
pub fn process_slice<T: PartialEq>(
    before: &[T],
    after: &[T],
    mut process: impl FnMut(usize, usize),
    should_diff: impl Fn(&T, &T) -> bool,
) {
    let lcs: Vec<&T> = longest_common_subsequence(before, after)
        .into_iter()
        .map(|i| &before[i])
        .collect();
    let (mut bi, mut ai, mut li) = (0, 0, 0);
    while bi < before.len() || ai < after.len() || li < lcs.len() {
        while bi < before.len() && (li >= lcs.len() || before[bi] != *lcs[li]) {
            let diff_elements = ai < after.len() && should_diff(&before[bi], &after[ai]);
            let after_in_lcs = li < lcs.len() && ai < after.len() && after[ai] == *lcs[li];
            if diff_elements && !after_in_lcs {
                process(bi, ai);
                bi += 1;
                ai += 1;
                continue;
            }
            process(bi, after.len());
            bi += 1;
        }
        while ai < after.len() && (li >= lcs.len() || after[ai] != *lcs[li]) {
            let diff_elements = bi < before.len() && should_diff(&before[bi], &after[ai]);
            if diff_elements {
                process(bi, ai);
                bi += 1;
                ai += 1;
                continue;
            }
            process(before.len(), ai);
            ai += 1;
        }
        if li < lcs.len() {
            process(bi, ai);
            bi += 1;
            ai += 1;
            li += 1;
        }
    }
}

/// Terraform's pairing: with `pairwise` (Terraform 1.8+, `Since::pairwise_lists`) two
/// sequences of the same length that are not a reordering (some element of `before` is
/// missing from `after`) are paired index by index; otherwise the longest common subsequence
/// is walked, pairing a removed element with an added one only when both are objects
/// (`is_object`).
pub fn process_slice_terraform<T: PartialEq>(
    before: &[T],
    after: &[T],
    mut process: impl FnMut(usize, usize),
    is_object: impl Fn(&T) -> bool,
    pairwise: bool,
) {
    let reorder = before.len() == after.len() && before.iter().all(|b| after.contains(b));
    if pairwise && before.len() == after.len() && !reorder {
        for ix in 0..before.len() {
            process(ix, ix);
        }
        return;
    }
    let lcs: Vec<&T> = longest_common_subsequence(before, after)
        .into_iter()
        .map(|i| &before[i])
        .collect();
    let (mut bi, mut ai, mut li) = (0, 0, 0);
    while bi < before.len() || ai < after.len() || li < lcs.len() {
        while bi < before.len() && (li >= lcs.len() || before[bi] != *lcs[li]) {
            let object_diff = is_object(&before[bi])
                && ai < after.len()
                && is_object(&after[ai])
                && (li >= lcs.len() || after[ai] != *lcs[li]);
            if object_diff {
                process(bi, ai);
                bi += 1;
                ai += 1;
                continue;
            }
            process(bi, after.len());
            bi += 1;
        }
        while ai < after.len() && (li >= lcs.len() || after[ai] != *lcs[li]) {
            process(before.len(), ai);
            ai += 1;
        }
        if li < lcs.len() {
            process(bi, ai);
            bi += 1;
            ai += 1;
            li += 1;
        }
    }
}
