int lib_answer(void)
{
	return 42;
}
