package org.example.coinage.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.example.coinage.Currency;
import org.example.coinage.Money;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MoneyFormatTest {
    @Test
    void formatsPlainAmounts() {
        assertEquals("1234.50 EUR", MoneyFormat.PLAIN.format(Money.of("1234.5", Currency.EUR)));
        assertEquals("-0.07 USD", MoneyFormat.PLAIN.format(Money.ofMinor(-7, Currency.USD)));
        assertEquals("1200 JPY", MoneyFormat.PLAIN.format(Money.ofMinor(1200, Currency.JPY)));
    }

    @Nested
    class Grouping {
        @ParameterizedTest
        @CsvSource(value = {"123456789, USD, '1,234,567.89 USD'", "-123456, EUR, '-1,234.56 EUR'", "99999, EUR, '999.99 EUR'",
            "1000, JPY, '1,000 JPY'", "1234567, BHD, '1,234.567 BHD'"})
        void groupsThousands(long minor, String code, String want) {
            assertEquals(want, MoneyFormat.PLAIN.withGrouping(',').format(Money.ofMinor(minor, Currency.of(code))));
        }

        @Test
        void takesAnySeparator() {
            assertEquals("12 345.00 CHF", MoneyFormat.PLAIN.withGrouping(' ').format(Money.of("12345", Currency.CHF)));
        }

        @Test
        void refusesDigitsAndSigns() {
            assertEquals("bad grouping separator '.'", assertThrows(IllegalArgumentException.class, () -> MoneyFormat.PLAIN.withGrouping('.')).getMessage());
            assertThrows(IllegalArgumentException.class, () -> MoneyFormat.PLAIN.withGrouping('7'));
        }
    }
}
