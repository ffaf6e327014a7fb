package org.example.coinage.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.example.coinage.Currency;
import org.example.coinage.Money;
import org.junit.jupiter.api.Test;

class MoneyFormatTest {
    @Test
    void formatsPlainAmounts() {
        assertEquals("1234.50 EUR", MoneyFormat.PLAIN.format(Money.of("1234.5", Currency.EUR)));
        assertEquals("-0.07 USD", MoneyFormat.PLAIN.format(Money.ofMinor(-7, Currency.USD)));
        assertEquals("1200 JPY", MoneyFormat.PLAIN.format(Money.ofMinor(1200, Currency.JPY)));
    }
}
