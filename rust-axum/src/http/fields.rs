//! Reading a write body field by field, so that every invalid field gets its own `errors[]`
//! entry in the 422 (serde would stop at the first wrong type).

use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::error::FieldError;

/// A request body that is a JSON object; unknown members are ignored. It is parsed as a whole
/// first, so that `[1, 2` is unparseable (400) rather than "not an object" (422).
#[derive(Debug, Deserialize)]
#[serde(try_from = "Value")]
pub struct JsonObject(Map<String, Value>);

impl TryFrom<Value> for JsonObject {
    type Error = &'static str;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        match value {
            Value::Object(members) => Ok(Self(members)),
            _ => Err("request body must be a JSON object"),
        }
    }
}

pub type Field<T> = Result<T, FieldError>;

impl JsonObject {
    /// A string that must be present, not blank, at most `max_chars` code points and free of U+0000.
    pub fn required_string(&mut self, field: &'static str, max_chars: usize) -> Field<String> {
        match self.0.remove(field) {
            None | Some(Value::Null) => Err(FieldError::new(field, "is required")),
            Some(Value::String(s)) if is_blank(&s) => {
                Err(FieldError::new(field, "must not be blank"))
            }
            Some(Value::String(s)) => checked_string(field, s, max_chars),
            Some(_) => Err(FieldError::new(field, "must be a string")),
        }
    }

    /// A string that may be absent or null (stored as NULL); blank is allowed.
    pub fn optional_string(
        &mut self,
        field: &'static str,
        max_chars: usize,
    ) -> Field<Option<String>> {
        match self.0.remove(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => checked_string(field, s, max_chars).map(Some),
            Some(_) => Err(FieldError::new(field, "must be a string or null")),
        }
    }

    /// An amount of money for `numeric(10,2)`, judged on the number exactly as written
    /// (serde_json's `arbitrary_precision` keeps its text): see [`exact_price`].
    pub fn price(&mut self, field: &'static str) -> Field<Decimal> {
        match self.0.remove(field) {
            Some(Value::Number(number)) => {
                exact_price(number.as_str()).map_err(|message| FieldError::new(field, message))
            }
            None | Some(Value::Null) => Err(FieldError::new(field, "is required")),
            Some(_) => Err(FieldError::new(field, "must be a number")),
        }
    }

    /// A JSON integer (no fractional part) within `min..=max`; `message` says what is expected.
    pub fn integer<T>(
        &mut self,
        field: &'static str,
        min: T,
        max: T,
        message: &'static str,
    ) -> Field<T>
    where
        T: TryFrom<i64> + PartialOrd,
    {
        match self.0.remove(field) {
            None | Some(Value::Null) => Err(FieldError::new(field, "is required")),
            Some(Value::Number(number)) => number
                .as_i64()
                .and_then(|n| T::try_from(n).ok())
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| FieldError::new(field, message)),
            Some(_) => Err(FieldError::new(field, message)),
        }
    }
}

/// Judges a JSON number literal as a price by its exact decimal value (spec/README.md): valid
/// when 0 <= value <= 99999999.99 and value × 100 is an integer, so `1e2`, `125E-2` and
/// `1.10000000000000000000` are prices while `1.00000000000000001` and `99999999.995` are not.
/// The literal is reduced to significant digits × 10^exponent before any arithmetic, so no
/// length of literal and no exponent (`1e-999999999`) costs more than reading it, and none is
/// cut to `Decimal`'s 28 digits on the way.
fn exact_price(literal: &str) -> Result<Decimal, &'static str> {
    const OUT_OF_RANGE: &str = "must be a number from 0 to 99999999.99";
    let (mantissa, exponent) = match literal.split_once(['e', 'E']) {
        None => (literal, 0),
        Some((mantissa, exponent)) => match exponent.parse::<i64>() {
            Ok(exponent) if exponent.unsigned_abs() <= 1 << 40 => (mantissa, exponent),
            // No literal is long enough to bring such an exponent back into range: the value is
            // 0 when all its digits are, and out of range otherwise.
            _ if mantissa.bytes().all(|b| matches!(b, b'-' | b'0' | b'.')) => {
                return Ok(Decimal::ZERO);
            }
            _ => return Err(OUT_OF_RANGE),
        },
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(unsigned) => (true, unsigned),
        None => (false, mantissa),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = [whole, fraction].concat();
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Ok(Decimal::ZERO); // 0, -0, 0.00, 0e7
    }
    let significant = digits.trim_end_matches('0');
    let exponent = exponent - fraction.len() as i64 + (digits.len() - significant.len()) as i64;
    if negative {
        return Err("must not be below 0");
    }
    if exponent < -2 {
        return Err("must have at most 2 decimal places");
    }
    // At most 8 integer digits; then the coefficient has at most 10 digits.
    if significant.len() as i64 + exponent > 8 {
        return Err(OUT_OF_RANGE);
    }
    let coefficient: i64 = significant.parse().map_err(|_| OUT_OF_RANGE)?;
    let value = if exponent < 0 {
        Decimal::new(coefficient, exponent.unsigned_abs() as u32)
    } else {
        Decimal::new(coefficient * 10_i64.pow(exponent as u32), 0)
    };
    if value > Decimal::new(9_999_999_999, 2) {
        return Err(OUT_OF_RANGE);
    }
    Ok(value)
}

/// "Blank" as the contract defines it: empty, or only spaces, tabs, CR and LF.
fn is_blank(s: &str) -> bool {
    s.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

fn checked_string(field: &'static str, s: String, max_chars: usize) -> Field<String> {
    if s.chars().count() > max_chars {
        Err(FieldError::new(
            field,
            format!("must be at most {max_chars} characters"),
        ))
    } else if s.contains('\0') {
        Err(FieldError::new(field, "must not contain U+0000"))
    } else {
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn body(value: Value) -> JsonObject {
        JsonObject::try_from(value).unwrap()
    }

    fn price_of(raw: &str) -> Field<Decimal> {
        let mut obj: JsonObject = serde_json::from_str(&format!(r#"{{"price": {raw}}}"#)).unwrap();
        obj.price("price")
    }

    #[test]
    fn price_is_judged_by_its_exact_value() {
        let valid = [
            ("0", "0"),
            ("-0", "0"),
            ("0.00", "0"),
            ("0e-999999999", "0"),
            ("0e99999999999999999999", "0"),
            ("1.230", "1.23"),
            ("0.10", "0.1"),
            ("600.55", "600.55"),
            ("99999999.99", "99999999.99"),
            ("1e2", "100"),
            ("1E+2", "100"),
            ("125E-2", "1.25"),
            ("1.10000000000000000000", "1.1"),
            ("1.1000000000000000000000000000000000000000", "1.1"),
            ("1000000000000000000000e-23", "0.01"),
            ("9999999999e-2", "99999999.99"),
        ];
        for (literal, value) in valid {
            let price = price_of(literal).unwrap_or_else(|e| panic!("{literal}: {}", e.message));
            assert_eq!(price.normalize().to_string(), value, "{literal}");
        }
        let invalid = [
            "1.00000000000000001",
            "99999999.995",
            "99999999.991",
            "1.234",
            "-0.01",
            "-1",
            "100000000",
            "1e8",
            "1e400",
            "1e-400",
            "1e-3",
            "1e-999999999",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "1e9223372036854775807",
            "1.5e-9223372036854775808",
            "\"9.99\"",
            "true",
            "null",
        ];
        for literal in invalid {
            assert!(price_of(literal).is_err(), "{literal} should be rejected");
        }
    }

    #[test]
    fn required_strings_reject_blank_long_nul_and_non_strings() {
        let mut obj = body(json!({
            "blank": " \t\r\n", "long": "é".repeat(33), "nul": "a\u{0}b", "number": 5,
            "exact": "é".repeat(32), "padded": "  x  ",
        }));
        for field in ["blank", "long", "nul", "number", "missing"] {
            let error = obj.required_string(field, 32).unwrap_err();
            assert_eq!(error.field, field);
        }
        // Lengths count code points, not bytes; strings are kept as sent.
        assert_eq!(obj.required_string("exact", 32).unwrap(), "é".repeat(32));
        assert_eq!(obj.required_string("padded", 32).unwrap(), "  x  ");
    }

    #[test]
    fn optional_strings_allow_absent_null_and_blank() {
        let mut obj = body(json!({"null": null, "blank": "  ", "number": 1}));
        assert_eq!(obj.optional_string("absent", 10).unwrap(), None);
        assert_eq!(obj.optional_string("null", 10).unwrap(), None);
        assert_eq!(
            obj.optional_string("blank", 10).unwrap().as_deref(),
            Some("  ")
        );
        assert!(obj.optional_string("number", 10).is_err());
    }

    #[test]
    fn only_objects_are_bodies() {
        for value in [json!(null), json!([]), json!("x"), json!(42)] {
            assert!(JsonObject::try_from(value).is_err());
        }
        assert!(
            serde_json::from_str::<JsonObject>("[1, 2")
                .unwrap_err()
                .is_eof()
        );
    }

    #[test]
    fn integers_need_no_fraction_and_the_range() {
        let mut obj = body(json!({
            "ok": 2147483647, "over": 2147483648_i64, "fraction": 1.5, "text": "1", "negative": -1,
        }));
        let int = |obj: &mut JsonObject, field| obj.integer(field, 0, i32::MAX, "out of range");
        assert_eq!(int(&mut obj, "ok").unwrap(), i32::MAX);
        for field in ["over", "fraction", "text", "negative", "missing"] {
            assert!(int(&mut obj, field).is_err(), "{field} should be rejected");
        }
    }
}
