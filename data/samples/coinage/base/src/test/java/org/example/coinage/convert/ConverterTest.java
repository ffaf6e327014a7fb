package org.example.coinage.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.example.coinage.Currency;
import org.example.coinage.Money;
import org.junit.jupiter.api.Test;

class ConverterTest {
    private final FixedRateProvider rates = new FixedRateProvider()
            .with(Currency.EUR, Currency.USD, "1.0850")
            .with(Currency.USD, Currency.JPY, "151.37");

    @Test
    void convertsWithTheRate() {
        Converter c = new Converter(rates);
        assertEquals(Money.of("108.50", Currency.USD), c.convert(Money.of("100", Currency.EUR), Currency.USD));
        assertEquals(Money.of("1514", Currency.JPY), c.convert(Money.of("10.00", Currency.USD), Currency.JPY));
    }

    @Test
    void sameCurrencyIsTheSameAmount() {
        assertEquals(Money.of("3.30", Currency.GBP), new Converter(rates).convert(Money.of("3.30", Currency.GBP), Currency.GBP));
    }

    @Test
    void refusesNonPositiveRates() {
        assertThrows(IllegalArgumentException.class, () -> new FixedRateProvider().with(Currency.EUR, Currency.USD, "0"));
    }
}
