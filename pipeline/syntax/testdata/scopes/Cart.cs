using System;

namespace Shop.Core
{
    public class Cart
    {
        private int count;

        public Cart(int n)
        {
            count = n;
        }

        public int Count
        {
            get { return count; }
            set { count = value; }
        }

        public int Double => count * 2;

        public int this[int i] => i;

        public static Cart operator +(Cart a, Cart b) => a;

        [Obsolete]
        public void Add()
        {
            Func<int, int> f = x => x + 1;
            int Local() { return 1; }
            count = f(Local());
        }

        ~Cart() { Dispose(); }

        private class Item
        {
            internal string Name { get; set; }
        }
    }

    public interface IStore { void Save(); }
}
