//! `--seed S`: the master seed, a whole number from 0 to 2^63 - 1 (what `simulation.seed`
//! takes: a TOML integer is signed 64-bit). Parsed here rather than by
//! clap's integer parser so that `--seed -1` gets a plain message (clap would otherwise take
//! `-1` for a flag and suggest `-- -1`). Used with `allow_negative_numbers`.

pub fn parse(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|&s| s <= i64::MAX as u64)
        .ok_or_else(|| format!("expected a whole number from 0 to {} (the master seed), got '{text}'", i64::MAX))
}

#[cfg(test)]
mod tests {
    #[test]
    fn whole_numbers_only() {
        assert_eq!(super::parse("7"), Ok(7));
        assert_eq!(super::parse(&i64::MAX.to_string()), Ok(i64::MAX as u64));
        let too_big = (i64::MAX as u64 + 1).to_string();
        for bad in ["-1", "1.5", "x", "", too_big.as_str()] {
            let e = super::parse(bad).unwrap_err();
            assert!(e.contains("expected a whole number from 0 to") && e.contains(&format!("got '{bad}'")), "{e}");
        }
    }
}
