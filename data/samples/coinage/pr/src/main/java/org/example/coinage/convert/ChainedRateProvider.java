package org.example.coinage.convert;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.example.coinage.Currency;

/**
 * Asks providers in order: the first that knows a rate gives it.
 * CGEP-3, "Rate providers".
 */
public final class ChainedRateProvider implements ExchangeRateProvider {
    private final List<ExchangeRateProvider> providers;

    /**
     * Chains the providers, asked in the list's order.
     *
     * @param providers at least one provider
     * @throws IllegalArgumentException when the list is empty
     */
    public ChainedRateProvider(List<ExchangeRateProvider> providers) {
        if (providers.isEmpty()) {
            throw new IllegalArgumentException("a chain needs at least one provider");
        }
        this.providers = List.copyOf(providers);
    }

    /** The rate of the first provider that knows one, else empty. */
    @Override
    public Optional<BigDecimal> rate(Currency from, Currency to) {
        for (ExchangeRateProvider p : providers) {
            Optional<BigDecimal> r = p.rate(from, to);
            if (r.isPresent()) {
                return r;
            }
        }
        return Optional.empty();
    }
}
