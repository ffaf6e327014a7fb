package org.example.coinage.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.example.coinage.Currency;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RateProviderTest {
    private final FixedRateProvider fixed = new FixedRateProvider().with(Currency.EUR, Currency.USD, "1.25");

    @Nested
    @DisplayName("InverseRateProvider")
    class Inverse {
        @Test
        void invertsAKnownRate() {
            assertEquals(Optional.of(new BigDecimal("0.8000000000")), new InverseRateProvider(fixed).rate(Currency.USD, Currency.EUR));
        }

        @Test
        void prefersTheDirectRate() {
            FixedRateProvider both = new FixedRateProvider().with(Currency.EUR, Currency.USD, "1.25").with(Currency.USD, Currency.EUR, "0.81");
            assertEquals(Optional.of(new BigDecimal("0.81")), new InverseRateProvider(both).rate(Currency.USD, Currency.EUR));
        }

        @Test
        void roundsHalfEvenToTenDigits() {
            FixedRateProvider p = new FixedRateProvider().with(Currency.GBP, Currency.JPY, "3");
            assertEquals(Optional.of(new BigDecimal("0.3333333333")), new InverseRateProvider(p).rate(Currency.JPY, Currency.GBP));
            assertEquals(Optional.empty(), new InverseRateProvider(p).rate(Currency.CHF, Currency.GBP));
        }
    }

    @Nested
    @DisplayName("ChainedRateProvider")
    class Chained {
        @Test
        void firstKnownRateWins() {
            FixedRateProvider other = new FixedRateProvider().with(Currency.EUR, Currency.USD, "2").with(Currency.EUR, Currency.CHF, "0.95");
            ChainedRateProvider chain = new ChainedRateProvider(List.of(fixed, other));
            assertEquals(Optional.of(new BigDecimal("1.25")), chain.rate(Currency.EUR, Currency.USD));
            assertEquals(Optional.of(new BigDecimal("0.95")), chain.rate(Currency.EUR, Currency.CHF));
            assertEquals(Optional.empty(), chain.rate(Currency.CHF, Currency.EUR));
        }

        @Test
        void needsAProvider() {
            assertEquals("a chain needs at least one provider",
                    assertThrows(IllegalArgumentException.class, () -> new ChainedRateProvider(List.of())).getMessage());
        }

        @Test
        void convertsThroughAChainOfInverses() {
            ExchangeRateProvider p = new ChainedRateProvider(List.of(new FixedRateProvider(), new InverseRateProvider(fixed)));
            assertEquals("80.00 EUR", new Converter(p).convert(org.example.coinage.Money.of("100", Currency.USD), Currency.EUR).toString());
        }
    }
}
