package org.example.coinage.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.RoundingMode;
import org.example.coinage.Currency;
import org.example.coinage.Money;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    @ParameterizedTest
    @CsvSource({"HALF_UP, 0.11", "HALF_EVEN, 0.10", "DOWN, 0.10", "UP, 0.11", "FLOOR, 0.10", "CEILING, 0.11"})
    @DisplayName("the rounding mode rounds to the minor unit")
    void roundsWithTheMode(RoundingMode mode, String want) {
        FixedRateProvider half = new FixedRateProvider().with(Currency.EUR, Currency.USD, "0.021");
        assertEquals(Money.of(want, Currency.USD), new Converter(half).convert(Money.of("5.00", Currency.EUR), Currency.USD, mode));
    }

    @Test
    void refusesUnnecessaryRounding() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Converter(rates).convert(Money.of("1", Currency.EUR), Currency.USD, RoundingMode.UNNECESSARY));
        assertEquals("rounding mode UNNECESSARY cannot round a conversion", e.getMessage());
    }

    @Test
    void namesAnUnknownRate() {
        UnknownRateException e = assertThrows(UnknownRateException.class,
                () -> new Converter(rates).convert(Money.of("1", Currency.EUR), Currency.JPY));
        assertEquals("no rate from EUR to JPY", e.getMessage());
    }
}
