provider perftest_sdt {
	probe foo__bar(int, long, const char *);
	probe small(char, short, unsigned char, unsigned short);
	probe twice(int);
	probe noargs();
};
