//! "Did you mean": the known name closest to a misspelt one, by edit distance.

/// Levenshtein distance between two short strings (characters, not bytes).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a likely typo: at most a
/// third of the word's length in edits, rounded, and at least one, ties going to the first candidate.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = ((word.chars().count() + 1) / 3).max(1);
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (distance(&lower, &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// " (did you mean 'x'?)" or nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or_else(String::new, |c| format!(" (did you mean '{c}'?)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_likely_typos_only() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(closest("rat", ["rate", "delay"]), Some("rate"));
        assert_eq!(closest("dealy", ["rate", "delay"]), Some("delay"));
        assert_eq!(closest("initial_windw", ["initial_window", "min_rto"]), Some("initial_window"));
        assert_eq!(closest("colour", ["rate", "delay"]), None);
        assert_eq!(did_you_mean("Rate", ["rate"]), " (did you mean 'rate'?)");
    }
}
