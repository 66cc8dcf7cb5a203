//! Exact decimal numbers for numeric matching.
//!
//! SNS compares numbers numerically (`301.5` equals `3.015e2`; SNS docs, "Numeric value
//! matching"). To stay deterministic on every target (native and wasm alike) no number is ever
//! turned into a float here: a numeric text is parsed into sign, significant digits and a
//! power-of-ten exponent, and two numbers are compared digit by digit. The comparison is exact for
//! any magnitude, so a message value far outside the policy range still compares correctly.
//!
//! Bodies and policies are parsed with `serde_json`, which stores a non-integer JSON number as an
//! `f64`; its `Display` prints the shortest text that reads back to the same `f64`, and that text
//! is what gets parsed here. A number of at most 15 significant digits (every policy number of
//! at most 10^9 with five decimals) survives that round trip exactly; a longer one is the `f64`'s
//! shortest text, which is deterministic on every target. `Number` attributes are parsed from
//! their text directly.
//!
//! Matching accuracy. SNS docs, "Filter policy constraints": "For numeric matching, the value can
//! range from -10^9 to 10^9 (-1 billion to 1 billion), with five digits of accuracy after the
//! decimal point." Numbers are therefore compared after [`Decimal::at_accuracy`] rounds them to
//! five decimal places, the policy's numbers once when it is compiled and each message number when
//! it is tested: `1.0000001` and `1.0000002` are the same number for matching. Chosen: rounding to
//! the nearest 0.00001, halves away from zero (Java's `RoundingMode.HALF_UP`: `0.000005` → `0.00001`,
//! `-0.000005` → `-0.00001`). The SNS docs state only the accuracy, not the rounding; event-ruler
//! (the matching library SNS and EventBridge share, at six decimals) rounds to nearest with
//! `Math.round`, which differs from this only on exact negative halves. Rounding to nearest is
//! monotonic, so a range never matches a value below a value it rejects.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

/// The documented bound of a policy number: SNS docs, "Filter policy constraints": "the value can
/// range from -10^9 to 10^9 (-1 billion to 1 billion), with five digits of accuracy after the
/// decimal point".
pub(crate) const MAX_POLICY_MAGNITUDE: i64 = 1_000_000_000;
/// See [`MAX_POLICY_MAGNITUDE`]: numbers are compared after rounding to this many decimal places.
pub(crate) const MAX_POLICY_FRACTION_DIGITS: i64 = 5;

/// An exact decimal: `(-1)^neg × digits × 10^exp`. Normalised so that equal values are equal
/// structs: no leading or trailing zero digits, and zero is `digits` empty, `exp` 0, `neg` false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    neg: bool,
    digits: Vec<u8>,
    exp: i64,
}

/// Exponents beyond this are clamped: such a number is astronomically far from any policy bound,
/// and clamping keeps all exponent arithmetic far from `i64` overflow.
const EXP_CLAMP: i64 = 1_000_000_000_000;

impl Decimal {
    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`). Anything else, including
    /// `NaN`, `Infinity`, hex and surrounding spaces, is not a number.
    pub(crate) fn parse(text: &str) -> Option<Decimal> {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut neg = false;
        if let Some(&sign) = bytes.first() {
            if sign == b'-' || sign == b'+' {
                neg = sign == b'-';
                i = 1;
            }
        }
        let mut digits: Vec<u8> = Vec::new();
        let mut fraction_len: i64 = 0;
        let mut seen_digit = false;
        let mut seen_point = false;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'0'..=b'9' => {
                    seen_digit = true;
                    if !(digits.is_empty() && b == b'0') {
                        digits.push(b);
                    }
                    if seen_point {
                        fraction_len = fraction_len.saturating_add(1);
                    }
                }
                b'.' if !seen_point => seen_point = true,
                _ => break,
            }
            i += 1;
        }
        if !seen_digit {
            return None;
        }
        let mut exponent: i64 = 0;
        if let Some(&b) = bytes.get(i) {
            if b != b'e' && b != b'E' {
                return None;
            }
            i += 1;
            let mut exp_neg = false;
            if let Some(&sign) = bytes.get(i) {
                if sign == b'-' || sign == b'+' {
                    exp_neg = sign == b'-';
                    i += 1;
                }
            }
            let start = i;
            while let Some(&d) = bytes.get(i) {
                if !d.is_ascii_digit() {
                    return None;
                }
                exponent = (exponent * 10 + i64::from(d - b'0')).min(EXP_CLAMP);
                i += 1;
            }
            if i == start {
                return None;
            }
            if exp_neg {
                exponent = -exponent;
            }
        }
        // Leading zeros were never pushed; a zero before the point kept `digits` empty, and the
        // fraction digits after it still count towards `fraction_len`.
        let mut exp = exponent.saturating_sub(fraction_len);
        while digits.last() == Some(&b'0') {
            digits.pop();
            exp = exp.saturating_add(1);
        }
        if digits.is_empty() {
            return Some(Decimal::zero());
        }
        Some(Decimal { neg, digits, exp: exp.clamp(-EXP_CLAMP, EXP_CLAMP) })
    }

    pub(crate) fn zero() -> Decimal {
        Decimal { neg: false, digits: Vec::new(), exp: 0 }
    }

    pub(crate) fn from_int(value: i64) -> Decimal {
        Decimal::parse(&value.to_string()).unwrap_or_else(Decimal::zero)
    }

    /// A JSON number as `serde_json` holds it (see the module docs for why this is exact here).
    pub(crate) fn from_json(number: &serde_json::Number) -> Option<Decimal> {
        Decimal::parse(&number.to_string())
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// How many digits follow the decimal point in the shortest writing of this number.
    pub(crate) fn fraction_digits(&self) -> i64 {
        if self.exp < 0 {
            -self.exp
        } else {
            0
        }
    }

    /// Whether this number is inside the documented policy range `[-10^9, 10^9]`.
    pub(crate) fn within_policy_range(&self) -> bool {
        let bound = Decimal::from_int(MAX_POLICY_MAGNITUDE);
        cmp_magnitude(self, &bound) != Ordering::Greater
    }

    /// This number as numeric matching sees it: rounded to [`MAX_POLICY_FRACTION_DIGITS`] decimal
    /// places, halves away from zero (see the module docs). Borrowed when nothing is cut off.
    pub(crate) fn at_accuracy(&self) -> Cow<'_, Decimal> {
        if self.fraction_digits() <= MAX_POLICY_FRACTION_DIGITS {
            Cow::Borrowed(self)
        } else {
            Cow::Owned(self.rounded(MAX_POLICY_FRACTION_DIGITS))
        }
    }

    /// This number at `places` decimal places (EventBridge compares at six), rounded as
    /// [`Decimal::at_accuracy`] rounds at five.
    pub(crate) fn at_places(&self, places: i64) -> Cow<'_, Decimal> {
        if self.fraction_digits() <= places {
            Cow::Borrowed(self)
        } else {
            Cow::Owned(self.rounded(places))
        }
    }

    /// Rounds to `places` decimal places, halves away from zero.
    fn rounded(&self, places: i64) -> Decimal {
        // The digit at index i weighs 10^(exp + len - 1 - i); those weighing at least 10^-places
        // are kept, the first one dropped decides the rounding.
        let keep = self.digits.len() as i128 + i128::from(self.exp) + i128::from(places);
        if keep < 0 {
            return Decimal::zero();
        }
        let keep = keep as usize; // keep < digits.len() here: exp < -places.
        let mut digits: Vec<u8> = self.digits[..keep].to_vec();
        if self.digits.get(keep).is_some_and(|&d| d >= b'5') {
            increment(&mut digits);
        }
        let mut exp = -places;
        while digits.last() == Some(&b'0') {
            digits.pop();
            exp += 1;
        }
        if digits.is_empty() {
            return Decimal::zero();
        }
        Decimal { neg: self.neg, digits, exp }
    }

    /// Position of the most significant digit: `digits.len() + exp` (as `i128`: no overflow).
    fn top(&self) -> i128 {
        self.digits.len() as i128 + i128::from(self.exp)
    }
}

/// Adds one to the last digit of an ASCII digit string, carrying (`999` → `1000`, `` → `1`).
fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, b'1');
}

fn cmp_magnitude(a: &Decimal, b: &Decimal) -> Ordering {
    match (a.is_zero(), b.is_zero()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        // Same leading position: digit strings compare lexicographically, a shorter one being the
        // smaller when it is a prefix (0.12 < 0.123), which is exactly byte-slice ordering.
        (false, false) => a.top().cmp(&b.top()).then_with(|| a.digits.cmp(&b.digits)),
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        let rank = |d: &Decimal| -> i8 {
            if d.is_zero() {
                0
            } else if d.neg {
                -1
            } else {
                1
            }
        };
        match rank(self).cmp(&rank(other)) {
            Ordering::Equal if self.neg => cmp_magnitude(other, self),
            Ordering::Equal => cmp_magnitude(self, other),
            unequal => unequal,
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Decimal {
    /// Plain notation (`301.5`, `-0.00001`, `1000000000`); scientific only for huge exponents.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.neg {
            f.write_str("-")?;
        }
        let digits: String = self.digits.iter().map(|&b| char::from(b)).collect();
        if self.exp >= 0 {
            if self.exp > 40 {
                return write!(f, "{digits}e{}", self.exp);
            }
            f.write_str(&digits)?;
            for _ in 0..self.exp {
                f.write_str("0")?;
            }
            return Ok(());
        }
        let shift = self.exp.unsigned_abs();
        if shift > 40 {
            return write!(f, "{digits}e{}", self.exp);
        }
        let len = digits.len() as u64;
        if shift >= len {
            f.write_str("0.")?;
            for _ in 0..(shift - len) {
                f.write_str("0")?;
            }
            f.write_str(&digits)
        } else {
            // `digits` is ASCII, so any byte index is a char boundary.
            let cut = (len - shift) as usize;
            let (int, frac) = digits.split_at(cut);
            write!(f, "{int}.{frac}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Decimal;

    fn d(text: &str) -> Decimal {
        Decimal::parse(text).unwrap_or_else(|| panic!("{text} should parse"))
    }

    #[test]
    fn equal_values_in_different_notations_are_equal() {
        // SNS docs, "Numeric value matching": 301.5 and 3.015e2 are the same number.
        assert_eq!(d("301.5"), d("3.015e2"));
        assert_eq!(d("100"), d("100.000"));
        assert_eq!(d("0"), d("-0.0"));
        assert_eq!(d("+7"), d("7e0"));
        assert_eq!(d(".5"), d("5e-1"));
        assert_eq!(d("5."), d("5"));
    }

    #[test]
    fn ordering_is_exact() {
        assert!(d("0.12") < d("0.123"));
        assert!(d("99") < d("100"));
        assert!(d("-100") < d("-99"));
        assert!(d("-0.00001") < d("0"));
        assert!(d("1000000000.00001") > d("1e9"));
        assert!(d("1e400") > d("999999999999"));
        assert!(d("-1e400") < d("-999999999999"));
        assert!(d("0.30") > d("0.29999999999999999999"));
    }

    #[test]
    fn rejects_non_numbers() {
        for text in ["", "-", ".", "1e", "1e+", "abc", "NaN", "Infinity", "0x10", " 1", "1 ", "1.2.3", "--1"] {
            assert!(Decimal::parse(text).is_none(), "{text:?} is not a number");
        }
    }

    #[test]
    fn range_and_precision() {
        assert!(d("1000000000").within_policy_range());
        assert!(d("-1e9").within_policy_range());
        assert!(!d("1000000000.00001").within_policy_range());
        assert_eq!(d("1.50000").fraction_digits(), 1);
        assert_eq!(d("0.000001").fraction_digits(), 6);
        assert_eq!(d("12e3").fraction_digits(), 0);
    }

    #[test]
    fn accuracy_is_five_decimals_rounded_half_away_from_zero() {
        // SNS docs, "Filter policy constraints": "with five digits of accuracy after the decimal
        // point". Chosen rounding: to nearest, halves away from zero.
        let acc = |text: &str| d(text).at_accuracy().into_owned();
        assert_eq!(acc("1.0000001"), d("1"));
        assert_eq!(acc("1.0000002"), acc("1.0000001"));
        assert_eq!(acc("1.000004999"), d("1"));
        assert_eq!(acc("1.000005"), d("1.00001"));
        assert_eq!(acc("-1.000005"), d("-1.00001"));
        assert_eq!(acc("-1.0000049"), d("-1"));
        assert_eq!(acc("0.999995"), d("1"), "a carry runs through the nines");
        assert_eq!(acc("999999999.999995"), d("1e9"));
        assert_eq!(acc("0.000005"), d("0.00001"));
        assert_eq!(acc("0.0000049"), d("0"));
        assert_eq!(acc("-0.000001"), d("0"), "rounds to zero, not to a negative zero");
        assert_eq!(acc("1e-999999999999999999999"), d("0"));
        assert_eq!(acc("123.45678"), d("123.45678"), "five decimals are kept as they are");
        assert_eq!(acc("12345678901234567890"), d("12345678901234567890"), "integers are untouched");
    }

    #[test]
    fn rounding_keeps_the_order() {
        let values = ["-2.000005", "-2.0000049", "-1e-7", "0", "0.0000049", "0.000005", "0.999995", "1.0000001"];
        for pair in values.windows(2) {
            let (a, b) = (d(pair[0]), d(pair[1]));
            assert!(a < b);
            assert!(a.at_accuracy() <= b.at_accuracy(), "{} then {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn displays_plainly() {
        assert_eq!(d("3.015e2").to_string(), "301.5");
        assert_eq!(d("-0.00001").to_string(), "-0.00001");
        assert_eq!(d("1e9").to_string(), "1000000000");
        assert_eq!(d("1e300").to_string(), "1e300");
        assert_eq!(d("0").to_string(), "0");
    }

    #[test]
    fn huge_exponents_do_not_overflow() {
        assert!(d("1e999999999999999999999") > d("1e9"));
        assert!(d("1e-999999999999999999999") < d("1e-9"));
        assert!(d("1e-999999999999999999999") > d("0"));
    }
}
