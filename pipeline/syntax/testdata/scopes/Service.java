package p;

import java.util.function.Function;

public class Service {
    private int count;

    public Service() {
        count = 0;
    }

    public void run() {
        Runnable r = new Runnable() {
            @Override
            public void run() {
                count++;
            }
        };
        Function<Integer, Integer> f = x -> x + 1;
    }

    public record Point(int x, int y) {
        public Point {
            if (x < 0) throw new IllegalArgumentException();
        }
        int sum() { return x + y; }
    }

    enum Color { RED; Color next() { return RED; } }

    interface Shape { double area(); }

    @Deprecated
    static class Nested {
        void go() {}
    }
}
