package org.example.coinage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MoneyTest {
    @ParameterizedTest
    @CsvSource({"12.50, EUR, 1250", "0.01, USD, 1", "1200, JPY, 1200", "1.234, BHD, 1234", "-3.10, GBP, -310"})
    void parsesDecimalAmounts(String amount, String code, long minor) {
        assertEquals(minor, Money.of(amount, Currency.of(code)).minor());
    }

    @Test
    @DisplayName("more decimals than the minor unit are refused")
    void tooManyDecimals() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Money.of("1.005", Currency.EUR));
        assertEquals("too many decimals for EUR (2): 1.005", e.getMessage());
    }

    @Test
    void printsAmountAndCode() {
        assertEquals("12.50 EUR", Money.ofMinor(1250, Currency.EUR).toString());
        assertEquals("7 JPY", Money.ofMinor(7, Currency.JPY).toString());
    }

    @Nested
    class Arithmetic {
        @Test
        void addsAndSubtracts() {
            Money a = Money.of("10.25", Currency.EUR);
            Money b = Money.of("0.75", Currency.EUR);
            assertEquals(Money.of("11.00", Currency.EUR), a.plus(b));
            assertEquals(Money.of("9.50", Currency.EUR), a.minus(b));
        }

        @Test
        void multipliesAndNegates() {
            assertEquals(Money.ofMinor(-3000, Currency.USD), Money.ofMinor(1000, Currency.USD).times(3).negate());
            assertTrue(Money.ofMinor(-1, Currency.USD).isNegative());
            assertFalse(Money.zero(Currency.USD).isNegative());
        }

        @Test
        void refusesMixedCurrencies() {
            CurrencyMismatchException e = assertThrows(CurrencyMismatchException.class,
                    () -> Money.ofMinor(1, Currency.EUR).plus(Money.ofMinor(1, Currency.USD)));
            assertEquals("currency mismatch: EUR and USD", e.getMessage());
        }
    }
}
