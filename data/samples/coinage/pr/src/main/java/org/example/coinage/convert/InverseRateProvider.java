package org.example.coinage.convert;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.Optional;
import org.example.coinage.Currency;

/**
 * Completes a provider with inverse rates: when it knows no rate from A to
 * B but knows one from B to A, the rate is its inverse, to SCALE decimal
 * digits, rounded half even. CGEP-3, "Rate providers".
 */
public final class InverseRateProvider implements ExchangeRateProvider {
    /** The decimal digits of an inverted rate. */
    public static final int SCALE = 10;

    private final ExchangeRateProvider inner;

    /**
     * Wraps the provider whose rates are completed.
     *
     * @param inner the provider asked first, in both directions
     */
    public InverseRateProvider(ExchangeRateProvider inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    /**
     * The wrapped provider's rate from one currency to the other, else the
     * inverse of its rate the other way, else empty.
     */
    @Override
    public Optional<BigDecimal> rate(Currency from, Currency to) {
        Optional<BigDecimal> direct = inner.rate(from, to);
        if (direct.isPresent()) {
            return direct;
        }
        return inner.rate(to, from).map(r -> BigDecimal.ONE.divide(r, SCALE, RoundingMode.HALF_EVEN));
    }
}
